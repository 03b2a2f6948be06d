import { isIP } from 'node:net';
import { parseAllowedHost } from './outbound/host-allowlist.ts';

/** Thrown when an environment variable holds a value the service cannot start with. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Typed readers over an environment. A blank value counts as unset; a value that does not parse
 * throws a ConfigError naming the variable, so start-up stops with a message the operator can act on.
 */
export function envReader(env: Env = process.env) {
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  return {
    string(name: string, fallback: string): string {
      return raw(name) ?? fallback;
    },
    optionalString(name: string): string | undefined {
      return raw(name);
    },
    int(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
      const value = raw(name);
      if (value === undefined) return fallback;
      if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `expected a whole number, got "${value}"`);
      const parsed = Number(value);
      if (parsed < min || parsed > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
      return parsed;
    },
    bool(name: string, fallback: boolean): boolean {
      const value = raw(name)?.toLowerCase();
      if (value === undefined) return fallback;
      if (['1', 'true', 'yes', 'on'].includes(value)) return true;
      if (['0', 'false', 'no', 'off'].includes(value)) return false;
      throw new ConfigError(name, `expected true or false, got "${value}"`);
    },
    url(name: string, protocols: string[] = ['http:', 'https:']): string | undefined {
      const value = raw(name);
      if (value === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        throw new ConfigError(name, `expected a URL, got "${value}"`);
      }
      if (!protocols.includes(parsed.protocol)) {
        throw new ConfigError(name, `expected a URL starting with ${protocols.join(' or ')}`);
      }
      return value;
    },
    oneOf<T extends string>(name: string, choices: readonly T[], fallback: T): T {
      const value = raw(name);
      if (value === undefined) return fallback;
      if (!choices.includes(value as T)) throw new ConfigError(name, `expected one of ${choices.join(', ')}`);
      return value as T;
    },
    /** Comma-separated IP addresses or CIDR ranges (for TRUST_PROXY). */
    addresses(name: string): string[] {
      const value = raw(name);
      if (value === undefined) return [];
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const entry of entries) {
        const [address, bits] = entry.split('/');
        const family = isIP(address ?? '');
        const bitsOk =
          bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
        if (!family || !bitsOk) throw new ConfigError(name, `"${entry}" is not an IP address or CIDR range`);
      }
      return entries;
    },
    /** Comma-separated `host` or `host:port` entries (outbound allowlists). */
    hosts(name: string): string[] {
      const entries = (raw(name) ?? '').split(',').map((entry) => entry.trim());
      return entries.filter(Boolean).map((entry) => {
        if (!parseAllowedHost(entry)) throw new ConfigError(name, `"${entry}" is not a host or host:port`);
        return entry;
      });
    },
  };
}

export type EnvReader = ReturnType<typeof envReader>;

/** Settings every service reads the same way. */
export interface CommonConfig {
  host: string;
  production: boolean;
  dataDir: string;
  trustProxy: string[];
  rateLimit: { failures: number; windowSeconds: number; blockSeconds: number };
  logLevel: string;
  /**
   * `REQUEST_LOG_SAMPLE`: the share (0 to 1) of successful, fast reads that get a request log line;
   * errors, writes and slow requests are always logged. Default 1, in production 0.01.
   */
  requestLogSample?: number | undefined;
  /** `METRICS_TOKEN`: a scraper sends it as `Authorization: Bearer …` to read `/metrics`. */
  metricsToken?: string | undefined;
  /** MIGRATE_ON_START: false makes a service refuse to start while its database lacks migrations. */
  migrateOnStart: boolean;
}

export function readCommonConfig(env: EnvReader): CommonConfig {
  const production = env.string('NODE_ENV', 'development') === 'production';
  return {
    host: env.string('HOST', '0.0.0.0'),
    production,
    dataDir: env.string('DATA_DIR', './data'),
    trustProxy: env.addresses('TRUST_PROXY'),
    rateLimit: {
      failures: env.int('RATE_LIMIT_FAILURES', 100, { min: 1 }),
      windowSeconds: env.int('RATE_LIMIT_WINDOW_S', 60, { min: 1 }),
      blockSeconds: env.int('RATE_LIMIT_BLOCK_S', 300, { min: 1 }),
    },
    logLevel: env.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    requestLogSample: share(env, 'REQUEST_LOG_SAMPLE', production ? 0.01 : 1),
    metricsToken: metricsToken(env),
    migrateOnStart: env.bool('MIGRATE_ON_START', true),
  };
}

function metricsToken(env: EnvReader): string | undefined {
  const token = env.optionalString('METRICS_TOKEN');
  if (token !== undefined && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError('METRICS_TOKEN', 'use at least 16 printable characters without spaces');
  }
  return token;
}

/** A number from 0 to 1. */
function share(env: EnvReader, name: string, fallback: number): number {
  const value = env.optionalString(name);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^(0|1|0?\.\d+|1\.0*)$/.test(value) || parsed > 1)
    throw new ConfigError(name, 'expected a number from 0 to 1');
  return parsed;
}

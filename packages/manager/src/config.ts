import { readFleetConfig, type FleetConfig } from './fleet-config.ts';
import { readContainersConfig, type ContainersConfig } from './containers/containers-config.ts';
import type { QuotaConfig } from './auth/quotas.ts';
import {
  ConfigError,
  envReader,
  loadSecretKey,
  readCommonConfig,
  type CommonConfig,
  type EnvReader,
} from '@app/server-kit';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}

export interface ManagerConfig extends CommonConfig {
  port: number;
  databaseUrl: string | undefined;
  secretKey: string;
  /** Base of every link we send (e-mails, SSO redirects); never taken from the Host header. */
  publicUrl: string;
  oidc: OidcConfig | undefined;
  /** `DEV_LOGIN=true`: the password-less development login, for loopback callers (never in production). */
  devLogin: boolean;
  /** Registration and password-reset requests per client address and per account (QUOTA_*). */
  quotas: QuotaConfig;
  fleet: FleetConfig;
  containers: ContainersConfig;
}

export function readManagerConfig(env: EnvReader = envReader()): ManagerConfig {
  const common = readCommonConfig(env);
  const port = env.int('MANAGER_PORT', 3000, { min: 0, max: 65535 });
  const issuer = env.url('OIDC_ISSUER');
  const clientId = env.optionalString('OIDC_CLIENT_ID');
  const devLogin = env.bool('DEV_LOGIN', false);
  if (devLogin && common.production)
    throw new ConfigError('DEV_LOGIN', 'the development login cannot be turned on with NODE_ENV=production');
  return {
    ...common,
    port,
    databaseUrl: env.optionalString('MANAGER_DATABASE_URL'),
    secretKey: loadSecretKey(env.optionalString('SECRET_KEY'), common.dataDir),
    devLogin,
    quotas: {
      perAddress: env.int('QUOTA_PER_ADDRESS', 10, { min: 1 }),
      perAccount: env.int('QUOTA_PER_ACCOUNT', 3, { min: 1 }),
      windowSeconds: env.int('QUOTA_WINDOW_S', 3600, { min: 1 }),
    },
    publicUrl: (env.url('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    fleet: readFleetConfig(env),
    containers: readContainersConfig(env),
    oidc:
      issuer && clientId
        ? { issuer, clientId, clientSecret: env.optionalString('OIDC_CLIENT_SECRET') }
        : undefined,
  };
}

import type { Kysely } from 'kysely';
import { formatAllowedHost, parseAllowedHost, validationFailed, type SecretBox } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import type { SettingsRepository } from './settings-repository.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { cleanSsoAdmission, SSO_ADMISSION_DEFAULTS, type SsoAdmission } from './sso-admission.ts';
import { MASK, maskUrlPassword, secretKeptFor, unmaskUrlPassword } from './masked-secrets.ts';

export interface EnvVarDefault {
  key: string;
  value: string;
  description: string;
}

export interface Settings extends SsoAdmission {
  smtpUrl: string;
  smtpNoreplyAddress: string;
  defaultContainerEnvVars: EnvVarDefault[];
  inventoryUrl: string;
  inventoryToken: string;
  bannerMessage: string;
  /**
   * Registries (`host` or `host:port`) users may have the manager read image metadata from although
   * they are on loopback or a private network, plain HTTP included.
   */
  registryAllowlist: string[];
  /** Days the audit log keeps its entries (1 to AUDIT_RETENTION_MAX_DAYS). */
  auditRetentionDays: number;
}

export type SettingsUpdate = Partial<Omit<Settings, 'inventoryToken'>> & { inventoryToken?: string | null };

const SECRET_KEYS = new Set<keyof Settings>(['smtpUrl', 'inventoryToken']);
/** Settings stored as JSON text. */
const JSON_KEYS = new Set<keyof Settings>([
  'defaultContainerEnvVars',
  'ssoAllowedDomains',
  'ssoAllowedGroups',
  'registryAllowlist',
  'auditRetentionDays',
]);
const CACHE_MS = 5_000;

const DEFAULTS: Settings = {
  smtpUrl: '',
  smtpNoreplyAddress: '',
  defaultContainerEnvVars: [],
  inventoryUrl: '',
  inventoryToken: '',
  bannerMessage: '',
  ...SSO_ADMISSION_DEFAULTS,
  registryAllowlist: [],
  auditRetentionDays: 365,
};

/**
 * Key-value settings. Secrets (the SMTP URL, which may carry a password, and the inventory token) are
 * sealed at rest and masked in answers. Reads are cached briefly: GET /health reads the banner on
 * every call, and other processes see a change within CACHE_MS.
 */
export class SettingsService {
  private cache: { settings: Settings; at: number } | undefined;

  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly repo: SettingsRepository,
    private readonly secrets: SecretBox,
    private readonly audit: AuditLog,
  ) {}

  /** The cached settings while they are fresh, without a promise (GET /health's fast path), else undefined. */
  fresh(): Settings | undefined {
    return this.cache && Date.now() - this.cache.at < CACHE_MS ? this.cache.settings : undefined;
  }

  async get(): Promise<Settings> {
    const cached = this.fresh();
    if (cached) return cached;
    const rows = await this.repo.all();
    const settings: Settings = { ...DEFAULTS };
    for (const { key, value } of rows) {
      if (!(key in DEFAULTS)) continue;
      const name = key as keyof Settings;
      const plain = SECRET_KEYS.has(name) && value ? this.secrets.open(value) : value;
      (settings as unknown as Record<string, unknown>)[name] = JSON_KEYS.has(name)
        ? (JSON.parse(plain || '[]') as unknown)
        : plain;
    }
    this.cache = { settings, at: Date.now() };
    return settings;
  }

  /** Settings as an administrator sees them: secrets masked. */
  async forDisplay(): Promise<Settings> {
    const settings = await this.get();
    return {
      ...settings,
      smtpUrl: maskUrlPassword(settings.smtpUrl),
      inventoryToken: settings.inventoryToken ? MASK : '',
    };
  }

  async update(input: SettingsUpdate): Promise<Settings> {
    const current = await this.get();
    const next: Partial<Settings> = {};
    if (input.smtpUrl !== undefined) next.smtpUrl = unmaskUrlPassword(input.smtpUrl.trim(), current.smtpUrl);
    for (const key of ['smtpNoreplyAddress', 'inventoryUrl', 'bannerMessage'] as const) {
      if (input[key] !== undefined) next[key] = input[key].trim();
    }
    if (input.inventoryToken === null) next.inventoryToken = '';
    else if (input.inventoryToken && input.inventoryToken !== MASK)
      next.inventoryToken = input.inventoryToken;
    else if (
      next.inventoryUrl !== undefined &&
      next.inventoryUrl !== current.inventoryUrl &&
      !secretKeptFor(current.inventoryUrl, next.inventoryUrl)
    )
      next.inventoryToken = '';
    if (input.defaultContainerEnvVars !== undefined)
      next.defaultContainerEnvVars = input.defaultContainerEnvVars;
    if (input.registryAllowlist !== undefined) next.registryAllowlist = input.registryAllowlist;
    if (input.auditRetentionDays !== undefined) next.auditRetentionDays = input.auditRetentionDays;
    const fields: Record<string, string> = {};
    Object.assign(next, cleanSsoAdmission(input, fields));
    validate(next, fields);
    if (next.registryAllowlist) next.registryAllowlist = canonicalHosts(next.registryAllowlist);

    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(next)) {
        await this.repo.put(trx, key, serialize(key as keyof Settings, value, this.secrets));
      }
      await this.audit.within(trx, { type: 'settings' });
    });
    this.cache = undefined;
    return this.forDisplay();
  }
}

function serialize(key: keyof Settings, value: unknown, secrets: SecretBox): string {
  const text = JSON_KEYS.has(key) ? JSON.stringify(value) : String(value);
  return SECRET_KEYS.has(key) && text ? secrets.seal(text) : text;
}

function validate(next: Partial<Settings>, fields: Record<string, string>) {
  if (next.smtpUrl && !/^smtps?:\/\//.test(next.smtpUrl))
    fields.smtpUrl = 'must start with smtp:// or smtps://';
  if (next.smtpUrl) {
    try {
      new URL(next.smtpUrl);
    } catch {
      fields.smtpUrl = 'is not a valid URL';
    }
  }
  if (next.smtpNoreplyAddress && !/^[^\s@]+@[^\s@]+$/.test(next.smtpNoreplyAddress)) {
    fields.smtpNoreplyAddress = 'must be an e-mail address';
  }
  if (next.inventoryUrl && !/^https?:\/\/\S+$/.test(next.inventoryUrl))
    fields.inventoryUrl = 'must be an http(s) URL';
  next.defaultContainerEnvVars?.forEach((entry, index) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry.key)) {
      fields[`defaultContainerEnvVars.${index}.key`] = 'must be a valid environment variable name';
    }
  });
  next.registryAllowlist?.forEach((entry, index) => {
    if (entry.trim() && !parseAllowedHost(entry)) {
      fields[`registryAllowlist.${index}`] =
        'must be a host or host:port such as registry.example or 127.0.0.1:5000 (no scheme or path)';
    }
  });
  if (Object.keys(fields).length) throw validationFailed(fields);
}

/** Valid allowlist entries in their canonical form, each once; blank lines dropped. */
function canonicalHosts(entries: string[]): string[] {
  const hosts = entries.flatMap((entry) => {
    const host = parseAllowedHost(entry);
    return host ? [formatAllowedHost(host)] : [];
  });
  return [...new Set(hosts)];
}

import { resolve } from 'node:path';
import {
  envReader,
  loadSecretKey,
  readCommonConfig,
  type CommonConfig,
  type EnvReader,
} from '@app/server-kit';

export interface AiConfig {
  /** Base URL of an OpenAI-compatible API, up to and including `/v1`. */
  baseUrl: string;
  model: string;
  /** DeepL's API host for projects that use DeepL; by default chosen by the key (free keys end in `:fx`). */
  deeplBaseUrl?: string | undefined;
  /** Phrases sent in one chat-completions call. */
  batchSize: number;
  /** Calls in flight at once for one job. */
  parallelCalls: number;
  /** Jobs running at once per project; more wait as pending. */
  jobsPerProject: number;
  /** Jobs one process runs at once (across projects). */
  jobsPerProcess: number;
  /** Attempts per call on 429/5xx/network errors before its items count as failed. */
  maxAttempts: number;
  /** First back-off delay; doubled on every retry (a Retry-After from the provider wins). */
  backoffMs: number;
  requestTimeoutMs: number;
  /** A running job whose lease is older than this is taken over by another worker (crash recovery). */
  leaseMs: number;
}

export interface BackupConfig {
  dir: string;
  /** Hours between automatic backups of each project; 0 turns them off. */
  intervalHours: number;
  /** Automatic backups kept per project. */
  keep: number;
  /** Seconds a project waits after a manual backup before the next (0: no wait). */
  manualIntervalSeconds: number;
  /** Manual backups kept per project; the oldest go when a new one is made. */
  manualKeep: number;
  /** The largest backup file a key holder may upload (POST /api/backups/upload), in bytes. */
  uploadMaxBytes: number;
}

/** What a publishable page key may cost, per project and client address. */
export interface PageKeyLimits {
  /** POST /api/textnodes calls per minute. */
  writesPerMinute: number;
  /** Reads (translations, languages, crawler configuration) per minute. */
  readsPerMinute: number;
  /** Phrases waiting for review beyond which page-key registration adds no more. */
  maxPendingPhrases: number;
  /** Pages (URLs) beyond which page-key registration records no new one. */
  maxUrls: number;
}

/** Dashboard accounts: where the dashboard is reached, and single sign-on. */
export interface AccountsConfig {
  /** `TRANSLATOR_PUBLIC_URL`: the dashboard's address, for invitation links and the SSO callback. */
  publicUrl: string | undefined;
  /** Single sign-on through an OpenID provider; needs the public URL for its callback. */
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  /** Days an invitation link stays valid. */
  inviteDays: number;
}

/** SEO mode: the translated pages served from projects' sites (see src/seo). */
export interface SeoConfig {
  /** Hosts a site's origin may be on although they resolve to a loopback or private address (and by HTTP). */
  allowlist: string[];
  /** Seconds an origin page is reused before it is fetched again. */
  originCacheSeconds: number;
  /** Rendered pages kept in memory (each process). */
  cachedPages: number;
  /** The largest origin page taken, in bytes. */
  maxPageBytes: number;
  /** Bound on one origin fetch. */
  originTimeoutMs: number;
}

export interface TranslatorConfig extends CommonConfig {
  port: number;
  databaseUrl: string | undefined;
  /** PostgreSQL schema (tests give each file its own). */
  databaseSchema?: string | undefined;
  secretKey: string;
  version: string;
  bodyLimit: number;
  /** Seconds an API key lookup and a delivery cache entry may be reused (bounds staleness across processes). */
  cacheTtlSeconds: number;
  ai: AiConfig;
  backup: BackupConfig;
  pageKey: PageKeyLimits;
  accounts: AccountsConfig;
  seo: SeoConfig;
  /** Folder with the dashboard build, served at `/` when set. */
  staticDir: string | undefined;
}

export const TRANSLATOR_VERSION = '1.0.0';

export function readTranslatorConfig(env: EnvReader = envReader()): TranslatorConfig {
  const common = readCommonConfig(env);
  return {
    ...common,
    port: env.int('TRANSLATOR_PORT', 3100, { min: 0, max: 65535 }),
    databaseUrl: env.optionalString('TRANSLATOR_DATABASE_URL'),
    secretKey: loadSecretKey(env.optionalString('SECRET_KEY'), common.dataDir),
    version: TRANSLATOR_VERSION,
    bodyLimit: env.int('TRANSLATOR_BODY_LIMIT', 5 * 1024 * 1024, { min: 1024 }),
    cacheTtlSeconds: env.int('TRANSLATOR_CACHE_TTL_S', 5, { min: 0, max: 3600 }),
    ai: {
      baseUrl: (env.url('TRANSLATOR_AI_BASE_URL') ?? 'https://api.openai.com/v1').replace(/\/+$/, ''),
      model: env.string('TRANSLATOR_AI_MODEL', 'gpt-4o-mini'),
      deeplBaseUrl: env.url('TRANSLATOR_DEEPL_BASE_URL')?.replace(/\/+$/, ''),
      batchSize: env.int('TRANSLATOR_AI_BATCH_SIZE', 25, { min: 1, max: 200 }),
      parallelCalls: env.int('TRANSLATOR_AI_PARALLEL', 4, { min: 1, max: 32 }),
      jobsPerProject: env.int('TRANSLATOR_AI_JOBS_PER_PROJECT', 1, { min: 1, max: 16 }),
      jobsPerProcess: 16,
      maxAttempts: 5,
      backoffMs: 500,
      requestTimeoutMs: env.int('TRANSLATOR_AI_TIMEOUT_S', 120, { min: 1 }) * 1000,
      leaseMs: 30_000,
    },
    backup: {
      dir: resolve(env.string('TRANSLATOR_BACKUP_DIR', resolve(common.dataDir, 'backups'))),
      intervalHours: env.int('TRANSLATOR_BACKUP_INTERVAL_H', 24, { min: 0 }),
      keep: env.int('TRANSLATOR_BACKUP_KEEP', 7, { min: 1 }),
      manualIntervalSeconds: env.int('TRANSLATOR_BACKUP_MANUAL_INTERVAL_S', 60, { min: 0, max: 86_400 }),
      manualKeep: env.int('TRANSLATOR_BACKUP_MANUAL_KEEP', 10, { min: 1, max: 1000 }),
      uploadMaxBytes: env.int('TRANSLATOR_BACKUP_UPLOAD_MAX_MB', 256, { min: 1, max: 65536 }) * 2 ** 20,
    },
    pageKey: {
      writesPerMinute: env.int('TRANSLATOR_PAGE_WRITES_PER_MIN', 60, { min: 1 }),
      readsPerMinute: env.int('TRANSLATOR_PAGE_READS_PER_MIN', 600, { min: 1 }),
      maxPendingPhrases: env.int('TRANSLATOR_PAGE_MAX_PENDING', 10_000, { min: 0 }),
      maxUrls: env.int('TRANSLATOR_PAGE_MAX_URLS', 10_000, { min: 0 }),
    },
    accounts: readAccountsConfig(env),
    seo: {
      allowlist: env.hosts('TRANSLATOR_SEO_ORIGIN_ALLOWLIST'),
      originCacheSeconds: env.int('TRANSLATOR_SEO_CACHE_S', 300, { min: 0, max: 86_400 }),
      cachedPages: env.int('TRANSLATOR_SEO_CACHED_PAGES', 2000, { min: 0 }),
      maxPageBytes: env.int('TRANSLATOR_SEO_MAX_PAGE_MB', 5, { min: 1, max: 100 }) * 2 ** 20,
      originTimeoutMs: env.int('TRANSLATOR_SEO_TIMEOUT_S', 10, { min: 1, max: 120 }) * 1000,
    },
    staticDir: env.optionalString('TRANSLATOR_STATIC_DIR'),
  };
}

function readAccountsConfig(env: EnvReader): AccountsConfig {
  const publicUrl = env.url('TRANSLATOR_PUBLIC_URL')?.replace(/\/+$/, '');
  const issuer = env.url('TRANSLATOR_OIDC_ISSUER');
  const clientId = env.optionalString('TRANSLATOR_OIDC_CLIENT_ID');
  if (issuer && (!clientId || !publicUrl))
    throw new Error(
      'TRANSLATOR_OIDC_ISSUER needs TRANSLATOR_OIDC_CLIENT_ID and TRANSLATOR_PUBLIC_URL (the SSO callback ' +
        'is TRANSLATOR_PUBLIC_URL/api/auth/oidc/callback)',
    );
  return {
    publicUrl,
    oidc:
      issuer && clientId
        ? { issuer, clientId, clientSecret: env.optionalString('TRANSLATOR_OIDC_CLIENT_SECRET') }
        : undefined,
    inviteDays: env.int('TRANSLATOR_INVITE_DAYS', 7, { min: 1, max: 90 }),
  };
}

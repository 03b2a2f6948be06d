import { randomUUID } from 'node:crypto';
import { notFound, sha256Hex } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import type { ChangeFeed } from '../changes.ts';
import { nowIso } from '../common/time.ts';
import { DEFAULT_PROMPT } from '../ai/default-prompt.ts';
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  parseStoredSettings,
  seoOriginRefusal,
  type OriginChecks,
  type SettingsPatch,
  type SettingsView,
  type StoredSettings,
} from './settings.ts';
import { API_KEY_LENGTH, isPageKey, newApiKey, newPageKey } from './keys.ts';
import { KeyCache, type ProjectRef } from './key-cache.ts';
import type { ProjectRow, ProjectsRepository } from './projects-repository.ts';
import { LOCAL_ORIGINS, originAllowed } from './origins.ts';

export type { ProjectRef } from './key-cache.ts';

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type ProjectsStore = Pick<
  ProjectsRepository,
  'create' | 'first' | 'list' | 'byId' | 'byKey' | 'allSettings' | 'update' | 'updateFrom' | 'deleteData'
>;

export interface Project {
  id: number;
  name: string;
  api_key: string;
  page_key: string;
  settings: SettingsView;
  /** The last origin other than the dashboard's the full key was used from (the dashboard warns). */
  full_key_used_from: { origin: string; at: string } | null;
  created_at: string;
}

/** The project as anyone may see it: without its keys and where the full key was seen. */
export function withoutKeys(project: Project) {
  const { api_key: _key, page_key: _pageKey, full_key_used_from: _seen, ...rest } = project;
  return rest;
}

/** A full-key use from the same origin is written again after this long at most. */
const FULL_KEY_USE_REWRITE_MS = 10 * 60_000;

/**
 * Projects and their keys. The full key is stored as SHA-256 (the lookup) and sealed with SECRET_KEY (the
 * spec shows it back to its holder), so a copied database or backup holds no usable full key; the page key
 * is public by design and stored as it is. Key lookups are cached for `cacheTtlSeconds`; this process
 * and every other process drop a project's entries at once when its keys or settings change.
 */
export class ProjectsService {
  private readonly keyCache: KeyCache;
  /** Every project's allowed origins, for CORS preflights (which carry no key). */
  private allOrigins: { patterns: string[]; expires: number } | undefined;
  /** The full-key uses this process wrote last, per project (so a page's traffic is not a write each). */
  private readonly fullKeyUses = new Map<number, { origin: string; at: number }>();

  constructor(
    private readonly ctx: Pick<TranslatorContext, 'config' | 'secrets'>,
    private readonly projects: ProjectsStore,
    private readonly changes: ChangeFeed,
  ) {
    this.keyCache = new KeyCache(ctx.config.cacheTtlSeconds * 1000);
    changes.on('keys', (projectId) => {
      if (projectId === undefined) this.keyCache.clear();
      else this.keyCache.forget(projectId);
      this.allOrigins = undefined;
    });
  }

  async create(
    name: string,
    settings: StoredSettings = DEFAULT_SETTINGS,
  ): Promise<{ project: Project; apiKey: string }> {
    const apiKey = newApiKey();
    const now = nowIso();
    const row = await this.projects.create(
      {
        name,
        api_key_hash: sha256Hex(apiKey),
        api_key_sealed: this.ctx.secrets.seal(apiKey),
        page_key: newPageKey(),
        full_key_origin: null,
        full_key_origin_at: null,
        settings: JSON.stringify(settings),
        provider_key_sealed: null,
        created_at: now,
        updated_at: now,
      },
      { id: randomUUID(), ...DEFAULT_PROMPT, is_default: 1, created_at: now, updated_at: now },
    );
    this.changes.announce('keys', row.id);
    return { project: this.toProject(row), apiKey };
  }

  /**
   * Creates the default project when the deployment has none; says whether it did. Outside production its
   * pages may be on this machine (any port), so the README's first page works with the page key.
   */
  async ensureDefault(): Promise<{ created: boolean; project: Project }> {
    const existing = await this.projects.first();
    if (existing) return { created: false, project: this.toProject(existing) };
    const settings = this.ctx.config.production
      ? DEFAULT_SETTINGS
      : { ...DEFAULT_SETTINGS, allowedOrigins: LOCAL_ORIGINS };
    return { created: true, project: (await this.create('Default project', settings)).project };
  }

  /** Every project, oldest first, without its key (for the operator's `project list`). */
  async list(): Promise<{ id: number; name: string; created_at: string }[]> {
    return this.projects.list();
  }

  async getDefault(): Promise<Project> {
    const row = await this.projects.first();
    if (!row) throw notFound('No project exists yet.');
    return this.toProject(row);
  }

  async get(id: number): Promise<Project> {
    return this.toProject(await this.row(id));
  }

  /** The project with this id, or undefined. */
  async find(id: number): Promise<Project | undefined> {
    const row = await this.projects.byId(id);
    return row && this.toProject(row);
  }

  /** The project with this id as the routes see it (a member's request names it by id), or undefined. */
  async ref(id: number): Promise<ProjectRef | undefined> {
    const row = await this.projects.byId(id);
    return row && { id: row.id, settings: parseStoredSettings(row.settings) };
  }

  /** The project of a key looked up less than `cacheTtlSeconds` ago, without touching the database. */
  cachedKey(key: string): ProjectRef | undefined {
    return this.keyCache.get(key);
  }

  /** The project a full key or a page key belongs to, or undefined for an unknown key. */
  async authenticate(key: string): Promise<ProjectRef | undefined> {
    const cached = this.keyCache.get(key);
    if (cached) return cached;
    const page = isPageKey(key);
    if (!page && key.length !== API_KEY_LENGTH) return undefined;
    const row = await this.projects.byKey(page, page ? key : sha256Hex(key));
    if (!row) {
      this.keyCache.delete(key);
      return undefined;
    }
    const ref = { id: row.id, settings: parseStoredSettings(row.settings) };
    this.keyCache.set(key, ref);
    return ref;
  }

  /** Whether any project allows pages from `origin` (CORS preflights name no project). */
  async originAllowedAnywhere(origin: string | undefined): Promise<boolean> {
    if (!origin) return false;
    if (!this.allOrigins || this.allOrigins.expires <= Date.now()) {
      const settings = await this.projects.allSettings();
      const patterns = [
        ...new Set(settings.flatMap((row) => parseStoredSettings(row.settings).allowedOrigins)),
      ];
      this.allOrigins = { patterns, expires: Date.now() + this.ctx.config.cacheTtlSeconds * 1000 };
    }
    return originAllowed(this.allOrigins.patterns, origin);
  }

  async rename(id: number, name: string): Promise<Project> {
    return this.update(id, { name: name.trim() });
  }

  /** A new full key; the old one stops at once, and the warning about its use from pages goes with it. */
  async regenerateKey(id: number): Promise<Project> {
    const apiKey = newApiKey();
    const project = await this.update(id, {
      api_key_hash: sha256Hex(apiKey),
      api_key_sealed: this.ctx.secrets.seal(apiKey),
      full_key_origin: null,
      full_key_origin_at: null,
    });
    this.changes.announce('keys', id);
    return project;
  }

  /** A new page key; the old one stops at once (pages must get the new snippet). */
  async regeneratePageKey(id: number): Promise<Project> {
    const project = await this.update(id, { page_key: newPageKey() });
    this.changes.announce('keys', id);
    return project;
  }

  /**
   * Notes that the full key was used from a page origin (not the dashboard's), for the dashboard's warning.
   * Repeats from one origin are written again only after a while: undefined when there is nothing to write.
   */
  recordFullKeyUse(id: number, origin: string): Promise<unknown> | undefined {
    const now = Date.now();
    const last = this.fullKeyUses.get(id);
    if (last && last.origin === origin && now - last.at < FULL_KEY_USE_REWRITE_MS) return undefined;
    this.fullKeyUses.set(id, { origin, at: now });
    return this.projects.update(id, {
      full_key_origin: origin.slice(0, 300),
      full_key_origin_at: new Date(now).toISOString(),
    });
  }

  async dismissFullKeyWarning(id: number): Promise<Project> {
    this.fullKeyUses.delete(id);
    return this.update(id, { full_key_origin: null, full_key_origin_at: null });
  }

  async updateSettings(id: number, patch: SettingsPatch, checks: OriginChecks = {}): Promise<Project> {
    const providerKey = patch.translationProviderApiKey;
    const seoRefusal = await seoOriginRefusal(patch, checks);
    let deliveryChanged = false;
    const row = await this.projects.updateFrom(id, (current) => {
      const before = parseStoredSettings(current.settings);
      const next = applySettingsPatch(before, patch, checks, seoRefusal);
      deliveryChanged =
        next.deliverReviewedOnly !== before.deliverReviewedOnly ||
        next.deliverOutdated !== before.deliverOutdated;
      return {
        settings: JSON.stringify(next),
        updated_at: nowIso(),
        ...(providerKey === null ? { provider_key_sealed: null } : {}),
        ...(providerKey ? { provider_key_sealed: this.ctx.secrets.seal(providerKey.trim()) } : {}),
      };
    });
    if (!row) throw notFound('Project not found.');
    this.changes.announce('keys', id);
    // What GET /api/translations delivers changed: its cached bytes (and ETags) go.
    if (deliveryChanged) this.changes.announce('data', id);
    return this.toProject(row);
  }

  async settings(id: number): Promise<StoredSettings> {
    return parseStoredSettings((await this.row(id)).settings);
  }

  /** The projects whose translation memory this one draws on: itself, and every sharing one when it shares. */
  async memoryScope(id: number): Promise<number[]> {
    if (!(await this.settings(id)).sharedMemory) return [id];
    const sharing = (await this.projects.allSettings()).filter(
      (row) => parseStoredSettings(row.settings).sharedMemory,
    );
    return sharing.map((row) => row.id);
  }

  /** The project's AI provider key in clear, for the job worker only. */
  async providerKey(id: number): Promise<string | undefined> {
    const row = await this.row(id);
    return row.provider_key_sealed ? this.ctx.secrets.open(row.provider_key_sealed) : undefined;
  }

  /** Deletes every phrase and translation of one project (its URLs go with the phrases). */
  async resetData(id: number): Promise<{ deletedPhrases: number; deletedTranslations: number }> {
    const result = await this.projects.deleteData(id);
    this.changes.announce('data', id);
    return result;
  }

  private async update(
    id: number,
    changes: Partial<Omit<ProjectRow, 'id' | 'created_at'>>,
  ): Promise<Project> {
    const row = await this.projects.update(id, { ...changes, updated_at: nowIso() });
    if (!row) throw notFound('Project not found.');
    return this.toProject(row);
  }

  private async row(id: number): Promise<ProjectRow> {
    const row = await this.projects.byId(id);
    if (!row) throw notFound('Project not found.');
    return row;
  }

  private toProject(row: ProjectRow): Project {
    return {
      id: row.id,
      name: row.name,
      api_key: this.ctx.secrets.open(row.api_key_sealed),
      page_key: row.page_key,
      settings: {
        ...parseStoredSettings(row.settings),
        translationProviderApiKey: '',
        translationProviderApiKeySet: row.provider_key_sealed !== null,
      },
      full_key_used_from:
        row.full_key_origin && row.full_key_origin_at
          ? { origin: row.full_key_origin, at: row.full_key_origin_at }
          : null,
      created_at: row.created_at,
    };
  }
}

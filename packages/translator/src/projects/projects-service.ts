import { randomBytes, randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { notFound, sha256Hex } from '@app/server-kit';
import type { ProjectsTable } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { nowIso } from '../common/time.ts';
import { DEFAULT_PROMPT } from '../ai/default-prompt.ts';
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  parseStoredSettings,
  type SettingsPatch,
  type SettingsView,
  type StoredSettings,
} from './settings.ts';

export const API_KEY_LENGTH = 24;

export interface Project {
  id: number;
  name: string;
  api_key: string;
  settings: SettingsView;
  created_at: string;
}

/** What a request authenticated by an API key carries. */
export interface ProjectRef {
  id: number;
  settings: StoredSettings;
}

/** The project as anyone may see it: without its key. */
export function withoutKeys(project: Project): Omit<Project, 'api_key'> {
  const { api_key: _key, ...rest } = project;
  return rest;
}

/** 18 random bytes in base64url: exactly 24 URL-safe characters. */
const newApiKey = () => randomBytes(18).toString('base64url');

interface CachedKey {
  ref: ProjectRef;
  expires: number;
}

/**
 * Projects and their API keys. A key is stored as SHA-256 (the lookup) and sealed with SECRET_KEY (the
 * spec shows it back to its holder), so a copied database or backup holds no usable key. Lookups are
 * cached for `cacheTtlSeconds`; this process drops the entry at once on regenerate or settings change.
 */
export class ProjectsService {
  private readonly keyCache = new Map<string, CachedKey>();

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly onDataChanged: (projectId: number) => void,
  ) {}

  async create(name: string): Promise<{ project: Project; apiKey: string }> {
    const apiKey = newApiKey();
    const now = nowIso();
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('projects')
        .values({
          name,
          api_key_hash: sha256Hex(apiKey),
          api_key_sealed: this.ctx.secrets.seal(apiKey),
          settings: JSON.stringify(DEFAULT_SETTINGS),
          provider_key_sealed: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('prompts')
        .values({
          id: randomUUID(),
          project_id: inserted.id,
          ...DEFAULT_PROMPT,
          is_default: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return inserted;
    });
    return { project: this.toProject(row), apiKey };
  }

  /** Creates the default project when the deployment has none; says whether it did. */
  async ensureDefault(): Promise<{ created: boolean; project: Project }> {
    const existing = await this.ctx.db
      .selectFrom('projects')
      .selectAll()
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (existing) return { created: false, project: this.toProject(existing) };
    return { created: true, project: (await this.create('Default project')).project };
  }

  /** Every project, oldest first, without its key (for the operator's `project list`). */
  async list(): Promise<{ id: number; name: string; created_at: string }[]> {
    return this.ctx.db.selectFrom('projects').select(['id', 'name', 'created_at']).orderBy('id').execute();
  }

  async getDefault(): Promise<Project> {
    const row = await this.ctx.db
      .selectFrom('projects')
      .selectAll()
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!row) throw notFound('No project exists yet.');
    return this.toProject(row);
  }

  async get(id: number): Promise<Project> {
    return this.toProject(await this.row(id));
  }

  /** The project with this id, or undefined. */
  async find(id: number): Promise<Project | undefined> {
    const row = await this.ctx.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.toProject(row);
  }

  /** The project of a key looked up less than `cacheTtlSeconds` ago, without touching the database. */
  cachedKey(apiKey: string): ProjectRef | undefined {
    const cached = this.keyCache.get(apiKey);
    return cached && cached.expires > Date.now() ? cached.ref : undefined;
  }

  /** The project an API key belongs to, or undefined for an unknown key. */
  async authenticate(apiKey: string): Promise<ProjectRef | undefined> {
    const now = Date.now();
    const cached = this.keyCache.get(apiKey);
    if (cached && cached.expires > now) return cached.ref;
    if (apiKey.length !== API_KEY_LENGTH) return undefined;
    const row = await this.ctx.db
      .selectFrom('projects')
      .select(['id', 'settings'])
      .where('api_key_hash', '=', sha256Hex(apiKey))
      .executeTakeFirst();
    if (!row) {
      this.keyCache.delete(apiKey);
      return undefined;
    }
    const ref = { id: row.id, settings: parseStoredSettings(row.settings) };
    if (this.ctx.config.cacheTtlSeconds > 0) {
      if (this.keyCache.size > 10_000) this.keyCache.clear();
      this.keyCache.set(apiKey, { ref, expires: now + this.ctx.config.cacheTtlSeconds * 1000 });
    }
    return ref;
  }

  async rename(id: number, name: string): Promise<Project> {
    const row = await this.ctx.db
      .updateTable('projects')
      .set({ name: name.trim(), updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('Project not found.');
    return this.toProject(row);
  }

  async regenerateKey(id: number): Promise<Project> {
    const apiKey = newApiKey();
    const row = await this.ctx.db
      .updateTable('projects')
      .set({
        api_key_hash: sha256Hex(apiKey),
        api_key_sealed: this.ctx.secrets.seal(apiKey),
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('Project not found.');
    this.forget(id);
    return this.toProject(row);
  }

  async updateSettings(id: number, patch: SettingsPatch): Promise<Project> {
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
      if (!current) throw notFound('Project not found.');
      const settings = applySettingsPatch(parseStoredSettings(current.settings), patch);
      const providerKey = patch.translationProviderApiKey;
      return trx
        .updateTable('projects')
        .set({
          settings: JSON.stringify(settings),
          updated_at: nowIso(),
          ...(providerKey === null ? { provider_key_sealed: null } : {}),
          ...(providerKey ? { provider_key_sealed: this.ctx.secrets.seal(providerKey.trim()) } : {}),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    this.forget(id);
    return this.toProject(row);
  }

  async settings(id: number): Promise<StoredSettings> {
    return parseStoredSettings((await this.row(id)).settings);
  }

  /** The project's AI provider key in clear, for the job worker only. */
  async providerKey(id: number): Promise<string | undefined> {
    const row = await this.row(id);
    return row.provider_key_sealed ? this.ctx.secrets.open(row.provider_key_sealed) : undefined;
  }

  /** Deletes every phrase and translation of one project (its URLs go with the phrases). */
  async resetData(id: number): Promise<{ deletedPhrases: number; deletedTranslations: number }> {
    const result = await this.ctx.db.transaction().execute(async (trx) => {
      const translations = await trx
        .deleteFrom('translations')
        .where('project_id', '=', id)
        .executeTakeFirst();
      await trx.deleteFrom('phrase_urls').where('project_id', '=', id).execute();
      const phrases = await trx.deleteFrom('phrases').where('project_id', '=', id).executeTakeFirst();
      return {
        deletedPhrases: Number(phrases.numDeletedRows),
        deletedTranslations: Number(translations.numDeletedRows),
      };
    });
    this.onDataChanged(id);
    return result;
  }

  private forget(projectId: number) {
    for (const [key, entry] of this.keyCache) if (entry.ref.id === projectId) this.keyCache.delete(key);
  }

  private async row(id: number): Promise<Selectable<ProjectsTable>> {
    const row = await this.ctx.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Project not found.');
    return row;
  }

  private toProject(row: Selectable<ProjectsTable>): Project {
    return {
      id: row.id,
      name: row.name,
      api_key: this.ctx.secrets.open(row.api_key_sealed),
      settings: {
        ...parseStoredSettings(row.settings),
        translationProviderApiKey: '',
        translationProviderApiKeySet: row.provider_key_sealed !== null,
      },
      created_at: row.created_at,
    };
  }
}

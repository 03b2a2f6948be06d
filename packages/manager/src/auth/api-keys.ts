import { randomUUID } from 'node:crypto';
import type { Selectable, Transaction } from 'kysely';
import { notFound, randomToken, sha256Hex } from '@app/server-kit';
import type { ApiKeysTable, ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { Principal } from './principal.ts';
import type { PrincipalCache } from './principal-cache.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { ApiKeysRepository } from './api-keys-repository.ts';

const KEY_MARK = 'cmk_';
const LAST_USED_RESOLUTION_MS = 60_000;
export interface ApiKey {
  id: string;
  keyPrefix: string;
  description: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const toApiKey = (row: Selectable<ApiKeysTable>): ApiKey => ({
  id: row.id,
  keyPrefix: row.key_prefix,
  description: row.description,
  lastUsedAt: row.last_used_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * API keys: 32 random bytes shown once, stored as a display prefix plus SHA-256 (a high-entropy secret
 * needs no slow hash, so a Bearer request costs one indexed lookup). `lastUsedAt` is written at most
 * once a minute per key, not on every request.
 */
export class ApiKeyService {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly cache: PrincipalCache,
    private readonly audit: AuditLog,
  ) {}

  async create(uidNumber: number, description: string | null): Promise<{ apiKey: ApiKey; secret: string }> {
    const secret = KEY_MARK + randomToken(32);
    const now = nowIso();
    const row = {
      id: randomUUID(),
      uid_number: uidNumber,
      key_prefix: secret.slice(0, KEY_MARK.length + 8),
      key_hash: sha256Hex(secret),
      description,
      last_used_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.audit.audited((trx) => this.repo.insert(row, trx), { type: 'apikey', id: row.id });
    return { apiKey: toApiKey(row), secret };
  }

  async list(uidNumber: number): Promise<ApiKey[]> {
    const rows = await this.repo.listOf(uidNumber);
    return rows.map(toApiKey);
  }

  async get(uidNumber: number, id: string): Promise<ApiKey> {
    const row = await this.repo.findOf(uidNumber, id);
    if (!row) throw notFound('API key not found.');
    return toApiKey(row);
  }

  async delete(uidNumber: number, id: string): Promise<void> {
    if (!(await this.audit.audited((trx) => this.repo.deleteOf(uidNumber, id, trx))))
      throw notFound('API key not found.');
    this.lastWritten.delete(id);
    this.cache.clear();
  }

  /** Deletes every key of a user (a password reset), inside the caller's transaction. */
  async revokeAll(uidNumber: number, db: Transaction<ManagerDB>): Promise<void> {
    await this.repo.deleteAllOf(db, uidNumber);
    this.lastWritten.clear();
    this.cache.clear();
  }

  /**
   * The principal behind a Bearer secret when it was authenticated within the cache's few seconds, with
   * no database round trip and no promise: the request hook answers a busy key's calls synchronously.
   */
  cached(secret: string): Principal | undefined {
    return secret.startsWith(KEY_MARK) ? this.fromCache(sha256Hex(secret)) : undefined;
  }

  /** The principal behind a Bearer secret, or undefined when the key is unknown or its user is not active. */
  async authenticate(secret: string): Promise<Principal | undefined> {
    if (!secret.startsWith(KEY_MARK)) return undefined;
    const hash = sha256Hex(secret);
    const cached = this.fromCache(hash);
    if (cached) return cached;
    const row = await this.repo.ownerOf(hash);
    if (!row) return undefined;
    this.recordUse(row.id);
    const principal: Principal = {
      uidNumber: row.uid_number,
      uid: row.uid,
      isAdmin: Boolean(row.is_admin),
      via: 'apikey',
      apiKeyId: row.id,
    };
    this.cache.set(hash, row.id, principal);
    return principal;
  }

  private fromCache(hash: string): Principal | undefined {
    const cached = this.cache.get(hash);
    if (!cached) return undefined;
    this.recordUse(cached.keyId);
    return cached.principal;
  }

  private recordUse(id: string) {
    const now = Date.now();
    if (now - (this.lastWritten.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastWritten.set(id, now);
    void this.repo.setLastUsed(id, new Date(now).toISOString()).catch(() => this.lastWritten.delete(id));
  }
}

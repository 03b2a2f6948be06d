import { randomUUID } from 'node:crypto';
import { notFound, randomToken, sha256Hex } from '@app/server-kit';
import { nowIso } from '../common/time.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { AgentTokenRow, AgentTokensRepository } from './agent-tokens-repository.ts';

const TOKEN_MARK = 'cma_';
/** A known token is looked up again after this long: what a lost revocation notification could leave. */
const KNOWN_FOR_MS = 5_000;
const MAX_KNOWN = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/** A Bearer secret shaped like an agent token (it is not an API key, whatever it authenticates as). */
export const isAgentTokenSecret = (secret: string) => secret.startsWith(TOKEN_MARK);

export interface AgentToken {
  id: string;
  siteId: number;
  tokenPrefix: string;
  description: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

/** What a valid agent token lets its holder be: the agent of one site. */
export interface SiteAgentCaller {
  tokenId: string;
  siteId: number;
}

const toAgentToken = (row: AgentTokenRow): AgentToken => ({
  id: row.id,
  siteId: row.site_id,
  tokenPrefix: row.token_prefix,
  description: row.description,
  lastUsedAt: row.last_used_at,
  createdAt: row.created_at,
});

/**
 * Per-site agent tokens: 32 random bytes shown once, stored as a display prefix plus SHA-256 (a
 * high-entropy secret needs no slow hash). The check-in's hot path costs a hash and a map lookup: a
 * token found is remembered for KNOWN_FOR_MS, forgotten at once when revoked (in another process too,
 * on PostgreSQL: see services.ts).
 */
export class AgentTokenService {
  private readonly known = new Map<string, { caller: SiteAgentCaller; until: number }>();
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly repo: AgentTokensRepository,
    private readonly assertSiteExists: (siteId: number) => Promise<void>,
    private readonly audit: Pick<AuditLog, 'audited'>,
  ) {}

  async create(siteId: number, description: string | null): Promise<{ token: AgentToken; secret: string }> {
    await this.assertSiteExists(siteId);
    const secret = TOKEN_MARK + randomToken(32);
    const row: AgentTokenRow = {
      id: randomUUID(),
      site_id: siteId,
      token_prefix: secret.slice(0, TOKEN_MARK.length + 8),
      token_hash: sha256Hex(secret),
      description,
      last_used_at: null,
      created_at: nowIso(),
    };
    await this.audit.audited((trx) => this.repo.insert(row, trx), { type: 'agent_token', id: row.id });
    return { token: toAgentToken(row), secret };
  }

  async list(siteId: number): Promise<AgentToken[]> {
    await this.assertSiteExists(siteId);
    return (await this.repo.listOfSite(siteId)).map(toAgentToken);
  }

  async revoke(siteId: number, id: string): Promise<void> {
    if (!(await this.audit.audited((trx) => this.repo.delete(siteId, id, trx))))
      throw notFound('Agent token not found.');
    this.forgetAll();
    this.lastWritten.delete(id);
  }

  /** Looks every token up again on its next use (one was revoked, here or in another process). */
  forgetAll(): void {
    this.known.clear();
  }

  /** The site agent a Bearer secret stands for, or undefined when no such token exists (any more). */
  async authenticate(secret: string): Promise<SiteAgentCaller | undefined> {
    if (!isAgentTokenSecret(secret)) return undefined;
    const hash = sha256Hex(secret);
    const now = Date.now();
    let entry = this.known.get(hash);
    if (!entry || entry.until <= now) {
      const row = await this.repo.byHash(hash);
      if (!row) {
        this.known.delete(hash);
        return undefined;
      }
      if (this.known.size >= MAX_KNOWN) this.known.clear();
      entry = { caller: { tokenId: row.id, siteId: row.site_id }, until: now + KNOWN_FOR_MS };
      this.known.set(hash, entry);
    }
    this.noteUse(entry.caller.tokenId, now);
    return entry.caller;
  }

  /** lastUsedAt is written at most once a minute per token, never awaited by the request. */
  private noteUse(id: string, now: number) {
    if (now - (this.lastWritten.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastWritten.set(id, now);
    this.repo.touch(id, new Date(now).toISOString()).catch(() => this.lastWritten.delete(id));
  }
}

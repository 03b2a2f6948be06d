import { createHash } from 'node:crypto';
import type { CacheRecorder } from '@app/server-kit';
import type { ConfigChanges } from './config-changes.ts';
import { buildSnapshot } from './snapshot-builder.ts';
import type { SnapshotRepository } from './snapshot-repository.ts';

/** A transaction that wrote before a build started has committed within this time. */
const SETTLE_MS = 1_000;
/** Other processes (a separate worker, more API processes) write without this one noticing. */
const MAX_AGE_MS = 10_000;

export interface CachedSnapshot {
  /** The response body, serialised once: `{"data":{"site":…,"proxy":…}}`. */
  body: string;
  /** Strong ETag: a hash of the body. */
  etag: string;
  builtAt: number;
}

/**
 * One snapshot per site, rebuilt only after the site configuration changed (any write to its tables
 * in this process) or after MAX_AGE_MS; so a check-in that changes nothing costs no database query.
 */
export class SnapshotCache {
  private readonly entries = new Map<number, CachedSnapshot>();
  private readonly building = new Map<number, Promise<CachedSnapshot | undefined>>();

  constructor(
    private readonly repo: SnapshotRepository,
    private readonly changes: ConfigChanges,
    private readonly lookups?: CacheRecorder,
  ) {}

  private fresh(entry: CachedSnapshot | undefined): entry is CachedSnapshot {
    const now = Date.now();
    return (
      !!entry && entry.builtAt - SETTLE_MS > this.changes.lastWriteAt && now - entry.builtAt < MAX_AGE_MS
    );
  }

  /** The site's snapshot, or undefined when the site does not exist. */
  async get(siteId: number): Promise<CachedSnapshot | undefined> {
    const entry = this.entries.get(siteId);
    if (this.fresh(entry)) {
      this.lookups?.hit();
      return entry;
    }
    this.lookups?.miss();
    let pending = this.building.get(siteId);
    if (!pending) {
      pending = this.build(siteId).finally(() => this.building.delete(siteId));
      this.building.set(siteId, pending);
    }
    return pending;
  }

  private async build(siteId: number): Promise<CachedSnapshot | undefined> {
    const builtAt = Date.now();
    const snapshot = await buildSnapshot(this.repo, siteId);
    if (!snapshot) {
      this.entries.delete(siteId);
      return undefined;
    }
    const body = JSON.stringify({ data: snapshot });
    const entry = {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
      builtAt,
    };
    // Keep the same ETag object when nothing changed, so a rebuild is invisible to agents.
    this.entries.set(siteId, entry);
    return entry;
  }
}

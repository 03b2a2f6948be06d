import { etagOf, type CachedBody } from '../http/cached-body.ts';

/** The delivered JSON as bytes (`body`), until `expires`. */
export interface DeliveryEntry extends CachedBody {
  expires: number;
}

/**
 * The approved translations of a project and language as ready-to-send bytes, built once and reused
 * until a write to that project drops them, in any process (see ProjectChanges), or `ttlMs` passes.
 */
export class DeliveryCache {
  private readonly entries = new Map<string, DeliveryEntry>();
  /** Per project, the languages whose entry holds at least one translation. */
  private readonly delivering = new Map<number, { codes: ReadonlySet<string>; expires: number }>();
  private readonly versions = new Map<number, number>();
  /** Moved by clear(): a build that began before it is not kept. */
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  /** The entry when it is cached and fresh, without a promise. */
  peek(projectId: number, lang: string): DeliveryEntry | undefined {
    const hit = this.entries.get(`${projectId}\u0000${lang}`);
    return hit && hit.expires > Date.now() ? hit : undefined;
  }

  async get(projectId: number, lang: string, build: () => Promise<unknown>): Promise<DeliveryEntry> {
    const id = `${projectId}\u0000${lang}`;
    const hit = this.entries.get(id);
    if (hit && hit.expires > Date.now()) return hit;
    return this.build(
      projectId,
      async () => {
        const body = Buffer.from(JSON.stringify(await build()));
        return { body, etag: etagOf(body), expires: Date.now() + this.ttlMs };
      },
      (entry) => this.entries.set(id, entry),
    );
  }

  /** The languages with at least one delivered translation (`build` lists them), kept like the entries. */
  async languages(projectId: number, build: () => Promise<string[]>): Promise<ReadonlySet<string>> {
    const hit = this.delivering.get(projectId);
    if (hit && hit.expires > Date.now()) return hit.codes;
    const built = await this.build(
      projectId,
      async () => ({ codes: new Set(await build()), expires: Date.now() + this.ttlMs }),
      (entry) => this.delivering.set(projectId, entry),
    );
    return built.codes;
  }

  private async build<T>(projectId: number, make: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const version = this.versions.get(projectId) ?? 0;
    const generation = this.generation;
    const value = await make();
    // A write that landed while we were reading makes this build stale: serve it once, do not keep it.
    if ((this.versions.get(projectId) ?? 0) === version && this.generation === generation) keep(value);
    return value;
  }

  /** Drops every language of a project; called after each write that can change what is delivered. */
  invalidate(projectId: number) {
    this.versions.set(projectId, (this.versions.get(projectId) ?? 0) + 1);
    this.delivering.delete(projectId);
    const prefix = `${projectId}\u0000`;
    for (const id of this.entries.keys()) if (id.startsWith(prefix)) this.entries.delete(id);
  }

  /** Drops every entry (changes may have been missed). */
  clear() {
    this.generation += 1;
    this.entries.clear();
    this.delivering.clear();
  }
}

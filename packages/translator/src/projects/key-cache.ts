import type { StoredSettings } from './settings.ts';

/** What a request authenticated by a project key (full or page) carries. */
export interface ProjectRef {
  id: number;
  settings: StoredSettings;
}

const MAX_ENTRIES = 10_000;

/**
 * Key lookups (full and page keys) reused for `ttlMs` without touching the database; every entry of a
 * project is dropped when its keys or settings change (in this process at once, in others on notice).
 */
export class KeyCache {
  private readonly entries = new Map<string, { ref: ProjectRef; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  get(key: string): ProjectRef | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expires > Date.now() ? entry.ref : undefined;
  }

  set(key: string, ref: ProjectRef) {
    if (this.ttlMs <= 0) return;
    if (this.entries.size > MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { ref, expires: Date.now() + this.ttlMs });
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  forget(projectId: number) {
    for (const [key, entry] of this.entries) if (entry.ref.id === projectId) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }
}

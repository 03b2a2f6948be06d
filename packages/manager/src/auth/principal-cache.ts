import type { CacheRecorder } from '@app/server-kit';
import type { Principal } from './principal.ts';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Recently authenticated API keys, so a busy client costs no database round trip per request.
 * Cleared whenever a key, user or group changes (a deleted key stops at once): in this process by the
 * service that changed it, in the others by the change's notification on PostgreSQL (services.ts).
 * TTL_MS bounds what a lost notification could leave.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; keyId: string; until: number }>();
  private readonly clearListeners: Array<() => void> = [];

  constructor(private readonly lookups?: CacheRecorder) {}

  get(keyHash: string): { principal: Principal; keyId: string } | undefined {
    const entry = this.entries.get(keyHash);
    if (entry && entry.until > Date.now()) {
      this.lookups?.hit();
      return entry;
    }
    if (entry) this.entries.delete(keyHash);
    this.lookups?.miss();
    return undefined;
  }

  set(keyHash: string, keyId: string, principal: Principal) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { principal, keyId, until: Date.now() + TTL_MS });
  }

  clear() {
    this.entries.clear();
    for (const listener of this.clearListeners) listener();
  }

  /** Calls `listener` whenever a key, user or group changed in this process (open terminals re-check). */
  onClear(listener: () => void) {
    this.clearListeners.push(listener);
  }
}

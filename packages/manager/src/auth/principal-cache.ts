import type { Principal } from './principal.ts';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Recently authenticated API keys, so a busy client costs no database round trip per request.
 * Cleared in this process whenever a key, user or group changes (a deleted key stops at once); other
 * processes see a change within TTL_MS.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; keyId: string; until: number }>();

  get(keyHash: string): { principal: Principal; keyId: string } | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry;
    this.entries.delete(keyHash);
    return undefined;
  }

  set(keyHash: string, keyId: string, principal: Principal) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { principal, keyId, until: Date.now() + TTL_MS });
  }

  clear() {
    this.entries.clear();
  }
}

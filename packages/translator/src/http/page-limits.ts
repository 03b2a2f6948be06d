import type { PageKeyLimits } from '../config.ts';

const WINDOW_MS = 60_000;

/**
 * Per-minute allowances of page-key traffic per (project, client address), writes and reads apart, kept
 * in this process's memory. A page key is public, so this bounds what one address can make a project
 * store or serve; the phrase cap (PhrasesService.register) bounds what all addresses together can add.
 */
export class PageKeyLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly limits: PageKeyLimits) {
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [id, window] of this.windows) if (window.start + WINDOW_MS <= now) this.windows.delete(id);
    }, WINDOW_MS);
    this.sweep.unref();
  }

  /** Counts one request; the seconds to wait when it is one too many, else undefined. */
  take(projectId: number, address: string, kind: 'write' | 'read'): number | undefined {
    const now = Date.now();
    const id = `${kind}\u0000${projectId}\u0000${address}`;
    let window = this.windows.get(id);
    if (!window || window.start + WINDOW_MS <= now) {
      window = { start: now, count: 0 };
      this.windows.set(id, window);
    }
    const limit = kind === 'write' ? this.limits.writesPerMinute : this.limits.readsPerMinute;
    if (window.count >= limit) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    window.count += 1;
    return undefined;
  }

  close() {
    clearInterval(this.sweep);
  }
}

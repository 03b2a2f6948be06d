import type { CachedBody } from '../http/cached-body.ts';

/** A language page ready to send. */
export interface RenderedPage extends CachedBody {
  status: number;
  /** The site's host (and port): the page is served only to requests for it. */
  host: string;
  expires: number;
}

/** What a language address answers: its page, or where it moved. */
export type LanguageAnswer =
  { kind: 'page'; page: RenderedPage } | { kind: 'redirect'; status: number; location: string };

/**
 * Rendered language pages, reused until the project's translations or settings change (in any process:
 * see ProjectChanges) or their origin page is due to be fetched again. Concurrent misses of one page
 * render it once; a render that a change overtook is answered but not kept.
 */
export class RenderedPages {
  private readonly entries = new Map<string, RenderedPage>();
  private readonly inFlight = new Map<string, Promise<LanguageAnswer>>();
  private readonly versions = new Map<number, number>();
  /** Moved by clear(): a render that began before it is not kept. */
  private generation = 0;

  constructor(private readonly maxPages: number) {}

  peek(projectId: number, language: string, path: string): RenderedPage | undefined {
    const hit = this.entries.get(`${projectId}\u0000${language}\u0000${path}`);
    return hit && hit.expires > Date.now() ? hit : undefined;
  }

  render(
    projectId: number,
    language: string,
    path: string,
    make: () => Promise<LanguageAnswer>,
  ): Promise<LanguageAnswer> {
    const id = `${projectId}\u0000${language}\u0000${path}`;
    const running = this.inFlight.get(id);
    if (running) return running;
    const version = this.versions.get(projectId) ?? 0;
    const generation = this.generation;
    const current = () => (this.versions.get(projectId) ?? 0) === version && this.generation === generation;
    const answer = make()
      .then((result) => {
        if (result.kind === 'page' && current() && this.maxPages > 0) {
          if (this.entries.size >= this.maxPages) this.entries.delete(this.entries.keys().next().value!);
          this.entries.set(id, result.page);
        }
        return result;
      })
      .finally(() => {
        if (this.inFlight.get(id) === answer) this.inFlight.delete(id);
      });
    this.inFlight.set(id, answer);
    return answer;
  }

  invalidate(projectId: number) {
    this.versions.set(projectId, (this.versions.get(projectId) ?? 0) + 1);
    const prefix = `${projectId}\u0000`;
    for (const map of [this.entries, this.inFlight])
      for (const id of map.keys()) if (id.startsWith(prefix)) map.delete(id);
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
    this.inFlight.clear();
  }
}

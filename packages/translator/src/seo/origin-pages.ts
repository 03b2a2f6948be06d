import {
  BodyTooLargeError,
  GuardedClient,
  HostAllowlist,
  OutboundError,
  readTextLimited,
} from '@app/server-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { SeoConfig } from '../config.ts';
import { fail } from '../errors/catalogue.ts';

/** What the site's origin answered for a path: a page to translate, a redirect, or something else. */
export type OriginAnswer =
  | { kind: 'page'; status: number; html: string; url: URL }
  | { kind: 'redirect'; status: number; location: URL }
  | { kind: 'other' };

interface Kept {
  answer: OriginAnswer;
  expires: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Pages translated: a page, and the site's own "not found" and "gone" pages. */
const PAGE_STATUSES = new Set([200, 203, 404, 410]);

/**
 * Fetches the pages of projects' sites, through the guarded client (internal addresses only for
 * allowlisted hosts), anonymously (no cookie or credential is ever sent), bounded in size and time.
 * Answers are kept for `originCacheSeconds`, unless the origin says `no-store` or `private`.
 */
export class OriginPages {
  private readonly client: GuardedClient;
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly config: SeoConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new GuardedClient({
      allowlist: new HostAllowlist(config.allowlist),
      connectTimeoutMs: config.originTimeoutMs,
    });
  }

  /**
   * The origin's answer for a path (the path is appended, so `//host` cannot leave the origin); with
   * `prerender`, what a browser shows once the page's scripts ran.
   */
  async get(
    origin: string,
    pathAndQuery: string,
    prerender?: (url: URL) => Promise<OriginAnswer>,
  ): Promise<OriginAnswer> {
    const url = new URL(origin + pathAndQuery);
    const id = `${prerender ? 'browser' : 'http'} ${url.href}`;
    const hit = this.kept.get(id);
    if (hit && hit.expires > Date.now()) return hit.answer;
    const { answer, keep } = prerender ? { answer: await prerender(url), keep: true } : await this.fetch(url);
    if (keep && this.config.originCacheSeconds > 0) {
      if (this.kept.size >= this.config.cachedPages) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(id, { answer, expires: Date.now() + this.config.originCacheSeconds * 1000 });
    }
    return answer;
  }

  private async fetch(url: URL): Promise<{ answer: OriginAnswer; keep: boolean }> {
    try {
      const response = await this.client.get(url, {
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', 'user-agent': 'loco-seo/1' },
        signal: AbortSignal.timeout(this.config.originTimeoutMs),
        followRedirects: false,
      });
      const keep = !/\b(no-store|private)\b/i.test(response.headers.get('cache-control') ?? '');
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel().catch(() => undefined);
        return {
          answer: { kind: 'redirect', status: response.status, location: new URL(location, url) },
          keep,
        };
      }
      if (response.status >= 500)
        throw new OutboundError(`the origin answered ${response.status} for ${url.pathname}`);
      const html = /^\s*(text\/html|application\/xhtml\+xml)/i.test(
        response.headers.get('content-type') ?? '',
      );
      if (!html || !PAGE_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        return { answer: { kind: 'other' }, keep };
      }
      const text = await readTextLimited(response, this.config.maxPageBytes);
      return { answer: { kind: 'page', status: response.status, html: text, url }, keep };
    } catch (error) {
      if (!(error instanceof OutboundError || error instanceof BodyTooLargeError || isAbort(error)))
        throw error;
      // The detail stays in the log: what a visitor is told must not map the origin's network.
      this.log.warn({ url: url.href, reason: String(error) }, 'seo: the origin gave no page');
      throw fail('origin_unavailable');
    }
  }

  /** Why the policy these fetches meet refuses `origin` now, or undefined (checked when it is saved). */
  refusal(origin: string): Promise<string | undefined> {
    return this.client.refusal(origin);
  }

  async close() {
    await this.client.close();
  }
}

const isAbort = (error: unknown) =>
  error instanceof DOMException || (error instanceof Error && error.name === 'TimeoutError');

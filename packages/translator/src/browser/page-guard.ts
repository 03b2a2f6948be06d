import { effectivePort, hostRefusalReason, type HostAllowlist } from '@app/server-kit';

/** Schemes a rendered page may use without a network request of its own. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);

/**
 * What the browser rendering a page may fetch: the page's own request and every one it makes go through
 * `refusal` (a request route aborts the refused ones). Addresses users may not reach — loopback, private,
 * link-local, metadata — are refused after resolution, unless the allowlist names the host, as the
 * guarded client refuses them for the translator's own calls. The answers are kept for one page visit.
 */
export class PageGuard {
  private readonly answers = new Map<string, Promise<string | undefined>>();

  constructor(private readonly allowlist: HostAllowlist) {}

  /** Why the browser may not fetch `url`, or undefined when it may. */
  refusal(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return Promise.resolve('not a URL');
    }
    if (LOCAL_SCHEMES.has(parsed.protocol)) return Promise.resolve(undefined);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return Promise.resolve(`${parsed.protocol} addresses are not fetched`);
    const port = effectivePort(parsed);
    if (this.allowlist.allows(parsed.hostname, port)) return Promise.resolve(undefined);
    let answer = this.answers.get(parsed.hostname);
    if (!answer) {
      answer = hostRefusalReason(parsed.hostname);
      this.answers.set(parsed.hostname, answer);
    }
    return answer;
  }
}

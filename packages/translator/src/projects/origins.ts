import { isIPv4, isIPv6 } from 'node:net';

/**
 * Allowed origins of a project's pages: `scheme://host[:port]` with scheme http or https, an optional
 * `*.` before a domain of at least two labels (any subdomain of it, not the domain itself), and an
 * optional port (`:*` for any port). Stored lower-case, without the scheme's default port or a trailing
 * slash, so a pattern compares with what browsers send in `Origin`.
 */
export const LOCAL_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

const SHAPE = /^(https?):\/\/(\*\.)?(\[[0-9a-f:.]+\]|[^/:?#@[\]\s]+)(?::(\d{1,5}|\*))?\/?$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };
export const ORIGIN_EXAMPLE =
  'an origin such as https://shop.example, https://*.shop.example or http://localhost:8080';

interface Pattern {
  scheme: string;
  wildcard: boolean;
  host: string;
  /** Port number as text, `*` for any, '' for the scheme's default. */
  port: string;
}

function parse(text: string): Pattern | string {
  const match = SHAPE.exec(text.trim().toLowerCase());
  if (!match) return `is not ${ORIGIN_EXAMPLE} (scheme, host and optional port; no path, query or user)`;
  const [, scheme = '', star, host = '', rawPort] = match;
  const wildcard = Boolean(star);
  if (host.startsWith('[')) {
    if (!isIPv6(host.slice(1, -1))) return `has "${host}", which is not an IPv6 address`;
    if (wildcard) return 'cannot put *. before an IP address';
  } else if (isIPv4(host)) {
    if (wildcard) return 'cannot put *. before an IP address';
  } else {
    const labels = host.split('.');
    if (host.length > 253 || !labels.every((label) => LABEL.test(label)))
      return `has "${host}", which is not a host name (letters, digits and hyphens between dots)`;
    if (wildcard && labels.length < 2)
      return '*. must be followed by a domain of two labels or more, e.g. *.shop.example';
  }
  let port = rawPort ?? '';
  if (port && port !== '*') {
    const number = Number(port);
    if (number < 1 || number > 65535) return `has port ${port}; a port is 1 to 65535, or * for any`;
    port = String(number) === DEFAULT_PORT[scheme] ? '' : String(number);
  }
  return { scheme, wildcard, host, port };
}

const format = (p: Pattern) =>
  `${p.scheme}://${p.wildcard ? '*.' : ''}${p.host}${p.port ? `:${p.port}` : ''}`;

/** The stored form of an allowed origin, or the problem with it (a sentence for the field error). */
export function normaliseOrigin(text: string): { origin: string } | { problem: string } {
  const parsed = parse(text);
  return typeof parsed === 'string' ? { problem: parsed } : { origin: format(parsed) };
}

/** Whether the `Origin` a browser sent matches one of the stored patterns. */
export function originAllowed(patterns: readonly string[], origin: string | undefined): boolean {
  if (!origin || !patterns.length) return false;
  const sent = parse(origin);
  if (typeof sent === 'string' || sent.wildcard || sent.port === '*') return false;
  return patterns.some((text) => {
    const allowed = parse(text);
    if (typeof allowed === 'string' || allowed.scheme !== sent.scheme) return false;
    if (allowed.port !== '*' && allowed.port !== sent.port) return false;
    return allowed.wildcard ? sent.host.endsWith(`.${allowed.host}`) : sent.host === allowed.host;
  });
}

/**
 * The origin of a page address when it is on one of the patterns: an http or https URL without a user
 * or password. Only such pages may be recorded by the page key, listed as links, or opened for editing
 * with an edit token (anything else — `javascript:`, another site — would receive the token).
 */
export function allowedPageOrigin(patterns: readonly string[], url: string): string | undefined {
  let page: URL;
  try {
    page = new URL(url);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(page.protocol) || page.username || page.password) return undefined;
  return originAllowed(patterns, page.origin) ? page.origin : undefined;
}

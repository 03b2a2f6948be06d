import { isIP } from 'node:net';

/** One allowlist entry: a host, and the port it is limited to (any port when absent). */
export interface AllowedHost {
  hostname: string;
  port: number | undefined;
}

const unbracket = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * `registry.example`, `registry.example:5000`, `10.0.0.5:5000`, `[fd00::5]:5000` or `::1` → the host
 * in its canonical form (lower case; IP addresses as the URL standard writes them); undefined when the
 * entry is anything else (a scheme, a path, credentials, a bad port).
 */
export function parseAllowedHost(entry: string): AllowedHost | undefined {
  const text = entry.trim();
  if (!text || /[\s/@?#\\]/.test(text)) return undefined;
  const bareIpv6 = isIP(text) === 6;
  let url: URL;
  try {
    url = new URL(`http://${bareIpv6 ? `[${text}]` : text}`);
  } catch {
    return undefined;
  }
  if (url.pathname !== '/' || !url.hostname) return undefined;
  // An explicit :80 is dropped by the URL parser; keep what was written.
  const written = bareIpv6 ? undefined : /:(\d+)$/.exec(text.replace(/^\[[^\]]*\]/, ''))?.[1];
  return { hostname: unbracket(url.hostname), port: written === undefined ? undefined : Number(written) };
}

/** `host` or `host:port`, as an administrator would read it back. */
export function formatAllowedHost(host: AllowedHost): string {
  const name = host.hostname.includes(':') ? `[${host.hostname}]` : host.hostname;
  return host.port === undefined ? name : `${name}:${host.port}`;
}

/** The canonical form of a host name or address as a URL gives it, for comparison with entries. */
function canonicalHost(hostname: string): string | undefined {
  const bare = unbracket(hostname);
  try {
    return unbracket(new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}`).hostname);
  } catch {
    return undefined;
  }
}

/**
 * Hosts an administrator trusts with outbound calls a user can trigger (a local registry such as
 * `127.0.0.1:5000`): the guard lets them through whatever they resolve to, plain HTTP included.
 * Entries match by name as written: `localhost` does not allow `127.0.0.1`.
 */
export class HostAllowlist {
  private readonly hosts: AllowedHost[];

  constructor(entries: Iterable<string>) {
    this.hosts = [...entries].flatMap((entry) => {
      const host = parseAllowedHost(entry);
      return host ? [host] : [];
    });
  }

  allows(hostname: string, port: number): boolean {
    const name = canonicalHost(hostname);
    return this.hosts.some(
      (host) => host.hostname === name && (host.port === undefined || host.port === port),
    );
  }
}

/** The port a URL reaches: its own, or its scheme's default. */
export const effectivePort = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

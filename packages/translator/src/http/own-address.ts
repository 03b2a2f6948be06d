import { hostname, networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

/** The connection a request came on: the address and port the translator answered on. */
export interface LocalEnd {
  localAddress?: string | undefined;
  localPort?: number | undefined;
}

/** `[::1]` → `::1`, `::ffff:127.0.0.1` → `127.0.0.1`, names lower-cased. */
const bare = (name: string) =>
  name
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1')
    .replace(/\.$/, '');

const isLoopback = (name: string) =>
  name === 'localhost' ||
  name.endsWith('.localhost') ||
  name === '::1' ||
  name === '::' ||
  name === '0.0.0.0' ||
  (isIP(name) === 4 && name.startsWith('127.'));

/**
 * The addresses that reach the translator itself — its dashboard and API, whose origin holds the
 * session cookie: its public URL (`TRANSLATOR_PUBLIC_URL`, on any port: another port of a host shares
 * its cookies), and the port it listens on under any name of this machine (loopback, its host name,
 * the addresses of its interfaces, `HOST`). SEO mode serves a site's HTML, scripts included, so it must
 * never be served under one of them, and no project may name one as its site.
 */
export class OwnAddress {
  private readonly publicHost: string | undefined;
  private readonly names: Set<string>;

  constructor(config: { publicUrl: string | undefined; host: string }) {
    this.publicHost = config.publicUrl ? bare(new URL(config.publicUrl).hostname) : undefined;
    this.names = new Set([bare(hostname()), bare(config.host)]);
    for (const list of Object.values(networkInterfaces()))
      for (const entry of list ?? []) this.names.add(bare(entry.address));
  }

  /**
   * Whether `host` (a Host header's or a URL's `host[:port]`; without a port, `defaultPort`) is the
   * translator's own, judged on the connection `local` it was asked on.
   */
  isOwn(host: string, local: LocalEnd, defaultPort = 80): boolean {
    const address = split(host, defaultPort);
    if (!address) return false;
    if (address.name === this.publicHost) return true;
    if (address.port !== local.localPort) return false;
    const { name } = address;
    return isLoopback(name) || this.names.has(name) || name === bare(local.localAddress ?? '');
  }

  /**
   * Whether the origin `url` is the translator's own (see isOwn), or the one the request asking to
   * store it was sent to (`requestHost`, its Host header).
   */
  isOwnOrigin(url: string, local: LocalEnd, requestHost: string): boolean {
    const { protocol, host } = new URL(url);
    const defaultPort = protocol === 'https:' ? 443 : 80;
    const site = split(host, defaultPort);
    const asked = split(requestHost, defaultPort);
    if (site && asked && site.name === asked.name && site.port === asked.port) return true;
    return this.isOwn(host, local, defaultPort);
  }
}

/** `name[:port]` → its bare name and port (the default when none is written). */
function split(host: string, defaultPort: number): { name: string; port: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim());
  if (!match) return undefined;
  return { name: bare(match[1]!), port: match[2] ? Number(match[2]) : defaultPort };
}

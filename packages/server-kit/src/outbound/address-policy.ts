import { BlockList, isIP } from 'node:net';

/** IPv4 ranges the manager never connects to for a user: [network, prefix, what it is]. */
const REFUSED_IPV4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments (cloud metadata)'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 ranges refused as they are (other addresses that embed an IPv4 address are judged by it). */
const REFUSED_IPV6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['fc00::', 7, 'unique local (cloud metadata)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function rangeList(ranges: Array<[string, number, string]>, family: 'ipv4' | 'ipv6') {
  return ranges.map(([network, prefix, what]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, what };
  });
}

const IPV4 = rangeList(REFUSED_IPV4, 'ipv4');
const IPV6 = rangeList(REFUSED_IPV6, 'ipv6');

/** The eight 16-bit words of an IPv6 address (a zone id is ignored, a trailing dotted quad is read). */
function ipv6Words(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const gap = tail === undefined ? 0 : 8 - first.length - last.length;
  return [...first, ...Array<string>(gap).fill('0'), ...last].map((word) => parseInt(word, 16));
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one stands for, where it does: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-compatible (`::a.b.c.d`, `::1` included), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
function embeddedIpv4(words: number[]): string | undefined {
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0)) return dotted(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return dotted(words[6]!, words[7]!);
  if (words[0] === 0x2002) return dotted(words[1]!, words[2]!);
  return undefined;
}

/**
 * Why an address must not be connected to on behalf of a user (loopback, private, CGNAT, link-local,
 * metadata, multicast, unspecified, reserved — IPv4 inside IPv6 included), or undefined when it may be.
 * Anything that is not an IP address is refused.
 */
export function refusedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return IPV4.find((range) => range.list.check(address, 'ipv4'))?.what;
  if (family !== 6) return 'not an IP address';
  const words = ipv6Words(address);
  const canonical = words.map((word) => word.toString(16)).join(':');
  const range = IPV6.find((entry) => entry.list.check(canonical, 'ipv6'));
  if (range) return range.what;
  const inner = embeddedIpv4(words);
  return inner === undefined ? undefined : refusedAddressReason(inner);
}

/** What refusedAddressReason calls the ranges no service we call lives on (IPv4 inside IPv6 included). */
const NEVER_ALLOWED = new Set([
  'link-local (cloud metadata)',
  'IETF protocol assignments (cloud metadata)',
  'link-local',
]);
/** The one cloud-metadata address inside the unique local range (AWS's IPv6 instance metadata). */
const METADATA_IPV6 = 'fd00:ec2:0:0:0:0:0:254';

/**
 * Why an address is refused even for an allowlisted host — link-local and cloud-metadata addresses
 * (169.254.169.254, 192.0.0.192, fe80::/10, fd00:ec2::254) — or undefined.
 */
export function neverAllowedReason(address: string): string | undefined {
  const reason = refusedAddressReason(address);
  if (reason && NEVER_ALLOWED.has(reason)) return reason;
  if (isIP(address) !== 6) return undefined;
  const canonical = ipv6Words(address)
    .map((word) => word.toString(16))
    .join(':');
  return canonical === METADATA_IPV6 ? 'cloud metadata' : undefined;
}

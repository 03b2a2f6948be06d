import { isIPv4, isIPv6 } from 'node:net';

/** A named format's check: `undefined` when the value is fine, else PVE's message for it. */
type FormatCheck = (value: string) => string | undefined;

const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const DNS_NAME = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const STORAGE_ID = /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i;

const test =
  (regex: RegExp, message: (value: string) => string): FormatCheck =>
  (value) =>
    regex.test(value) ? undefined : message(value);

/** Each item of a `,`/`;`/space separated list must pass `check`. */
const list =
  (check: FormatCheck): FormatCheck =>
  (value) =>
    value
      .split(/[,; ]+/)
      .filter(Boolean)
      .map(check)
      .find((error) => error !== undefined);

const cidr = (isIp: (ip: string) => boolean, max: number) => (value: string) => {
  const [ip, prefix, ...rest] = value.split('/');
  return !rest.length && isIp(ip ?? '') && /^\d+$/.test(prefix ?? '') && Number(prefix) <= max;
};

const checkStorageId = test(STORAGE_ID, (v) => `storage ID '${v}' contains illegal characters`);
const ipv4: FormatCheck = (v) => (isIPv4(v) ? undefined : 'value does not look like a valid IPv4 address');
const ipv6: FormatCheck = (v) => (isIPv6(v) ? undefined : 'value does not look like a valid IPv6 address');
const dnsName = test(DNS_NAME, () => 'value does not look like a valid DNS name');
const address: FormatCheck = (v) =>
  isIPv4(v) || isIPv6(v) || DNS_NAME.test(v) ? undefined : 'value does not look like a valid address';
const storageContent = test(
  /^(images|rootdir|vztmpl|iso|backup|snippets|import)$/,
  (v) => `invalid content type '${v}'`,
);

/**
 * The named formats of pve-common's JSONSchema.pm (and pve-container's) that the paths we serve use, as
 * far as a client can get them wrong. A name not listed here is not checked (firewall and migration
 * formats, time zones).
 */
const FORMATS: Record<string, FormatCheck> = {
  'pve-node': test(
    /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/,
    () => 'value does not look like a valid node name',
  ),
  'pve-vmid': test(/^[1-9][0-9]{2,8}$/, () => 'value does not look like a valid VM ID'),
  'pve-storage-id': checkStorageId,
  'pve-storage-id-list': list(checkStorageId),
  'pve-configid': test(/^[a-z][a-z0-9_-]+$/i, (v) => `invalid configuration ID '${v}'`),
  'pve-configid-list': list(test(/^[a-z][a-z0-9_-]+$/i, (v) => `invalid configuration ID '${v}'`)),
  'pve-poolid': test(/^[A-Za-z0-9_\-./]+$/, (v) => `pool name '${v}' contains illegal characters`),
  'pve-realm': test(/^[A-Za-z][A-Za-z0-9.\-_]+$/, (v) => `realm '${v}' contains illegal characters`),
  'pve-volume-id': test(/^[a-z][a-z0-9\-_.]*[a-z0-9]:.+$/i, (v) => `unable to parse volume ID '${v}'`),
  'pve-storage-content': storageContent,
  'pve-storage-content-list': list(storageContent),
  'pve-tag-list': list(test(/^[a-z0-9_][a-z0-9_\-+.]*$/i, (v) => `invalid tag '${v}'`)),
  'dns-name': dnsName,
  'dns-name-list': list(dnsName),
  address,
  ipv4,
  ipv6,
  'lxc-ip-with-ll-iface-list': list((v) =>
    isIPv4(v) || isIPv6(v.replace(/%[\w.-]+$/, '')) ? undefined : `invalid IP address '${v}'`,
  ),
  'mac-addr': test(
    /^[a-f0-9][02468ace](?::[a-f0-9]{2}){5}$/i,
    () => 'value does not look like a valid unicast MAC address',
  ),
  'pve-ipv4-config': (v) =>
    v === 'dhcp' || v === 'manual' || cidr(isIPv4, 32)(v)
      ? undefined
      : 'value does not look like a valid IPv4 network configuration',
  'pve-ipv6-config': (v) =>
    ['auto', 'dhcp', 'manual'].includes(v) || cidr(isIPv6, 128)(v)
      ? undefined
      : 'value does not look like a valid IPv6 network configuration',
  'disk-size': test(/^\d+(\.\d+)?[KMGT]?$/, (v) => `unable to parse size '${v}'`),
  'pve-lxc-mp-string': test(
    /^(?!\.\.?\/)(?!.*\/\.\.?\/)(?!.*\/\.\.?$)[^,]+$/,
    (v) => `${v} contains illegal character sequences`,
  ),
  'pve-lxc-dev-string': (v) =>
    !v.startsWith('/dev/')
      ? `${v} is not a valid device path`
      : /\/\.\.?(\/|$)/.test(v)
        ? `${v} contains illegal character sequences`
        : undefined,
  'pve-startup-order': test(
    /^(?:(?:order=)?\d+)?(?:,?(?:up|down)=\d+)*$/,
    (v) => `unable to parse startup options '${v}'`,
  ),
};

/** PVE's message for a value of a named format, `undefined` when it passes (or the format is not known). */
export function checkNamedFormat(format: string, value: string): string | undefined {
  return FORMATS[format]?.(value);
}

/** Names a domain's mail, certificates and name service depend on: administrators only. */
const RESERVED = new Set([
  'www',
  'mail',
  'smtp',
  'imap',
  'pop',
  'pop3',
  'mx',
  'autodiscover',
  'autoconfig',
  '_acme-challenge',
  '_dmarc',
  '_domainkey',
]);

/**
 * Why a name under an external domain (`externalHostname`, the part left of the domain) is reserved
 * for administrators, or undefined: the apex, the names above, `ns` and every `ns…` name, and any
 * label starting with `_` (service records: DKIM, DMARC, ACME challenges).
 */
export function reservedNameReason(name: string): string | undefined {
  const labels = name.toLowerCase().split('.');
  const top = labels.at(-1) ?? '';
  if (name === '' || name === '@') return 'the domain itself';
  if (labels.some((label) => label.startsWith('_'))) return 'names starting with "_" carry service records';
  if (RESERVED.has(top)) return `"${top}" is used by the web site, mail or certificates of the domain`;
  if (top.startsWith('ns')) return `"${top}" looks like a name server's name`;
  return undefined;
}

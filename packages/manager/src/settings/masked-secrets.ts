/** What answers show in place of a stored secret; sent back, it means "keep the stored one". */
export const MASK = '********';

/** `scheme://host:port` of a URL (the port its scheme implies when none is written); undefined if none. */
function destinationOf(url: string): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || defaultPort(parsed.protocol)}`;
}

const defaultPort = (protocol: string) =>
  ({ 'smtp:': '25', 'smtps:': '465', 'http:': '80', 'https:': '443' })[protocol] ?? '';

/**
 * Whether a stored secret may stay with a setting whose URL goes from `before` to `after`: only while
 * it still goes to the same scheme, host and port. A secret left masked or blank while the URL points
 * somewhere else is dropped, never sent to the new place.
 */
export function secretKeptFor(before: string, after: string): boolean {
  const from = destinationOf(before);
  return from !== undefined && from === destinationOf(after);
}

export function maskUrlPassword(url: string): string {
  if (!url) return url;
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = MASK;
    return parsed.toString();
  } catch {
    return '';
  }
}

/**
 * A URL sent back with the masked password keeps the stored password — if it still points where the
 * stored URL did; otherwise the password is left out.
 */
export function unmaskUrlPassword(url: string, stored: string): string {
  if (!url.includes(MASK) || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (decodeURIComponent(parsed.password) !== MASK) return url;
  parsed.password = secretKeptFor(stored, url) ? new URL(stored).password : '';
  return parsed.toString();
}

/** What decides where a node's secret goes: the API address and how the peer's certificate is checked. */
export interface NodeDestination {
  apiUrl: string | null;
  tlsVerify: boolean | null;
  tlsFingerprint: string | null;
}

/** Scheme, host and port of an API URL (a unix socket: its path); the URL itself when it does not parse. */
function endpointOf(apiUrl: string | null): string | null {
  if (apiUrl === null || !URL.canParse(apiUrl)) return apiUrl;
  const url = new URL(apiUrl);
  if (url.protocol === 'unix:') return `unix:${decodeURIComponent(url.pathname)}`;
  return `${url.protocol}//${url.host}`;
}

/** How the peer is checked: against a pinned fingerprint, the CAs (default, also when unset), or not. */
const checkOf = (node: NodeDestination) =>
  node.tlsFingerprint ? `pin ${node.tlsFingerprint}` : node.tlsVerify === false ? 'none' : 'ca';

/**
 * Whether a node's stored secret may stay when its connection settings change from `before` to
 * `after` without the secret being entered again: only while it goes to the same endpoint (scheme,
 * host, port) and the peer is checked at least as well as before.
 */
export function secretStaysWith(before: NodeDestination, after: NodeDestination): boolean {
  if (endpointOf(before.apiUrl) !== endpointOf(after.apiUrl)) return false;
  const [from, to] = [checkOf(before), checkOf(after)];
  return to === from || from === 'none' || (from === 'ca' && to.startsWith('pin '));
}

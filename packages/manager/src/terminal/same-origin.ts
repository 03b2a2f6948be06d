/**
 * Whether a browser's Origin is this site: the configured public URL, or the host the request was sent
 * to. A WebSocket is not bound by CORS, so without this a page elsewhere could open a shell with the
 * user's cookie.
 */
export function isSameOrigin(origin: string | undefined, requestHost: string, publicUrl: string): boolean {
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return url.origin === new URL(publicUrl).origin || url.host === requestHost;
}

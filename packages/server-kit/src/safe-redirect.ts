const SAME_SITE = 'http://same-site.invalid';
export const MAX_REDIRECT_LENGTH = 2048;

/** `target` resolved on this site the way a browser resolves a Location header, when it stays here. */
function onThisSite(target: string): URL | undefined {
  const url = new URL(target, SAME_SITE);
  return url.origin === SAME_SITE ? url : undefined;
}

/**
 * A path on this site to send the browser to (after sign-in, single sign-on, an invitation); anything
 * else becomes `/`. Browsers drop tabs and newlines from a Location and read `\` as `/`, so
 * `/\t/evil.example` and `/\evil.example` lead off-site: the target is resolved as a browser would, once
 * as given and once decoded (for a client that decodes it again), and only the path of a same-origin
 * result is kept. Both services use this one rule for every redirect target a caller chooses.
 */
export function safeRedirect(target: string | undefined | null): string {
  if (!target?.startsWith('/') || target.length > MAX_REDIRECT_LENGTH) return '/';
  try {
    const url = onThisSite(target);
    return url && onThisSite(decodeURIComponent(target)) ? url.pathname + url.search + url.hash : '/';
  } catch {
    return '/';
  }
}

/**
 * A path of this app to go to after signing in; anything else becomes `/`. The browser's version of
 * server-kit's safeRedirect (the rule the services apply to every redirect target): the target is
 * resolved as the browser resolves an address (dropping tabs and newlines, reading `\` as `/`), as given
 * and once decoded, and only a result on this origin is kept.
 */
export function safeRedirect(target: string | null | undefined, origin = window.location.origin): string {
  if (!target?.startsWith('/')) return '/';
  try {
    const url = new URL(target, origin);
    const decoded = new URL(decodeURIComponent(target), origin);
    return url.origin === origin && decoded.origin === origin ? url.pathname + url.search + url.hash : '/';
  } catch {
    return '/';
  }
}

/**
 * The Content-Security-Policy both dashboards (React + Mantine builds served by their own service) work
 * under: scripts, API calls, images and fonts from their own origin only; inline styles allowed, because
 * Mantine injects <style> elements and Mantine and recharts set style attributes; no plugins, no
 * <base>, no foreign form targets, and no framing (clickjacking).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every file of a dashboard is sent with. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/**
 * Every other answer (JSON, files, redirects, errors): a document that runs, loads and frames nothing,
 * should a browser ever be made to show one. A route that sets its own Content-Security-Policy (a
 * dashboard, the API docs, a site's translated page) keeps it.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers an answer gets unless its route set them (see createHttpServer). */
export const DEFAULT_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': API_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

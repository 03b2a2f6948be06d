/**
 * The browser script of the docs page's session (registerApiDocs serves it as a file beside Swagger UI).
 * Text, not a module of this package: it runs in the browser, and the services' bundles inline
 * server-kit, so no file of its own would be found next to them.
 */
export const API_DOCS_SESSION_SCRIPT = String.raw`// Served beside Swagger UI (so the docs page's strict CSP allows it) and called by its request
// interceptor: a request sent without a key, on this origin, goes as the signed-in browser's — its
// writes with the session's CSRF token, and, where the service wants one, the project it works on.
// The options (window.apiDocsSession) come first in the same file.
(() => {
  const options = window.apiDocsSession;
  const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];
  const hasHeader = (headers, name) => Object.keys(headers).some((key) => key.toLowerCase() === name);

  function remembered(key) {
    try {
      return Number(localStorage.getItem(key));
    } catch {
      return NaN;
    }
  }

  // Asked at each request: the browser may have signed in or out in another tab since the page opened.
  async function sessionAnswer() {
    const answer = await fetch(options.sessionUrl, { credentials: 'same-origin' }).catch(() => null);
    return answer?.ok ? answer.json() : null;
  }

  window.apiDocsRequest = async (request) => {
    // The CSRF token never leaves this origin, and a caller with a key needs none.
    if (request.loadSpec || new URL(request.url, location.href).origin !== location.origin) return request;
    const { headers } = request;
    if (options.keyHeaders.some((name) => hasHeader(headers, name))) return request;
    const write = !SAFE_METHODS.includes(String(request.method).toUpperCase());
    if (!write && !options.project) return request;
    const session = await sessionAnswer();
    if (!session) return request;
    const token = options.csrfField.split('.').reduce((value, key) => value?.[key], session);
    if (write && typeof token === 'string' && !hasHeader(headers, 'x-csrf-token'))
      headers['X-CSRF-Token'] = token;
    const { project } = options;
    if (project && !hasHeader(headers, project.header.toLowerCase())) {
      const projects = session.projects ?? [];
      const chosen = projects.find((p) => p.id === remembered(project.rememberedIn)) ?? projects[0];
      if (chosen) headers[project.header] = String(chosen.id);
    }
    return request;
  };
})();
`;

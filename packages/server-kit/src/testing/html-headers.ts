import { request } from 'node:http';
import type { RouteEntry } from '../http.ts';

/** One GET of a route, as a browser would send it. */
export interface WalkedAnswer {
  route: string;
  path: string;
  status: number;
  type: string;
  headers: Headers;
}

/**
 * GETs every GET route (`:param` and `*` filled by `fill`, or `1` and `x`) with `Accept: text/html`, as a
 * browser opening a link would, and returns what each answered. `headers` adds headers per path.
 */
export async function walkGetRoutes(
  origin: string,
  routes: readonly RouteEntry[],
  options: {
    fill?: (route: string) => string | undefined;
    headers?: (path: string) => Record<string, string>;
  } = {},
): Promise<WalkedAnswer[]> {
  const answers: WalkedAnswer[] = [];
  const seen = new Set<string>();
  for (const { method, url } of routes) {
    if (method !== 'GET' || seen.has(url)) continue;
    seen.add(url);
    const path = options.fill?.(url) ?? url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x');
    const answer = await new Promise<WalkedAnswer>((resolve, reject) => {
      const outgoing = request(
        `${origin}${path}`,
        { headers: { accept: 'text/html,*/*;q=0.8', ...options.headers?.(path) }, agent: false },
        (response) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) headers.set(name, [value].flat().join(', '));
          response.resume();
          response.on('end', () =>
            resolve({
              route: url,
              path,
              status: response.statusCode!,
              type: headers.get('content-type') ?? '',
              headers,
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    answers.push(answer);
  }
  return answers;
}

/** Sources that let foreign or injected script run. */
const UNSAFE_SCRIPT = /'unsafe-inline'|'unsafe-eval'|(^|\s)(\*|https?:|data:|blob:)(\s|$)/;

/**
 * What an answer lacks of the headers issue 32 asks of every HTML answer of both services: a CSP with
 * frame-ancestors, nosniff, a Referrer-Policy; and, unless it is a site's own page (`sitePage`, whose
 * scripts must run), a script policy that runs nothing inline and nothing from elsewhere.
 */
export function htmlHeaderProblems(answer: WalkedAnswer, sitePage = false): string[] {
  const problems: string[] = [];
  const where = `${answer.path} (${answer.status} ${answer.type || 'no type'})`;
  const csp = answer.headers.get('content-security-policy') ?? '';
  if (!/frame-ancestors/.test(csp)) problems.push(`${where}: no CSP frame-ancestors`);
  if (answer.headers.get('x-content-type-options') !== 'nosniff') problems.push(`${where}: no nosniff`);
  if (!answer.headers.get('referrer-policy')) problems.push(`${where}: no Referrer-Policy`);
  if (!sitePage) {
    const directives = new Map(
      csp.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    const scripts = directives.get('script-src') ?? directives.get('default-src');
    if (scripts === undefined) problems.push(`${where}: no script policy`);
    else if (UNSAFE_SCRIPT.test(scripts)) problems.push(`${where}: script-src ${scripts}`);
  }
  return problems;
}

// Where the packages' own code (not tests, fakes or test helpers) opens connections: each file, and which
// kinds of call it makes, found by the imports and calls below.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root, sourceFiles, specifiersOf } from './imports.ts';

/** Imports (not of types only) that mean the file opens connections of that kind. */
const IMPORTS: Record<string, RegExp> = {
  undici: /^undici$/,
  dgram: /^(node:)?dgram$/,
  http2: /^(node:)?http2$/,
  playwright: /^playwright(-core)?$/,
  nodemailer: /^nodemailer$/,
  pg: /^pg$/,
  'better-sqlite3': /^better-sqlite3$/,
  'openid-client': /^openid-client$/,
  'acme-client': /^acme-client$/,
  'aws-sdk': /^@aws-sdk\//,
  axios: /^axios$/,
  ssh2: /^ssh2$/,
};

/**
 * Calls that open connections, in code (comment lines are left out); with `module`, only in a file that
 * imports it (`http.get(` of a Map is not a request).
 */
const CALLS: Record<string, { call: RegExp; module?: RegExp }> = {
  'fetch(': { call: /\bfetch\(/ },
  'http.request': {
    call: /\bhttps?\.(request|get)\(|import\s*\{[^}]*\b(request|get)\b[^}]*\}\s*from\s*'(node:)?https?'/,
    module: /^(node:)?https?$/,
  },
  'http.Agent': {
    call: /\bextends\s+(https?\.)?Agent\b|\bnew\s+https?\.Agent\(/,
    module: /^(node:)?https?$/,
  },
  'net.connect': {
    call: /\b(net|tls)\.(connect|createConnection)\(|import\s*\{[^}]*\b(connect|createConnection)\b[^}]*\}\s*from\s*'(node:)?(net|tls)'/,
    module: /^(node:)?(net|tls)$/,
  },
  undici: { call: /\bloadUndici\(/ },
  pg: { call: /\(\s*'pg'\s*\)/ },
  'better-sqlite3': { call: /\(\s*'better-sqlite3(-node22)?'\s*\)/ },
  'new WebSocket': { call: /\bnew WebSocket\(/ },
  'new EventSource': { call: /\bnew EventSource\(/ },
  'new XMLHttpRequest': { call: /\bnew XMLHttpRequest\(/ },
  sendBeacon: { call: /\bsendBeacon\(/ },
  nodemailer: { call: /\bcreateTransport\(/ },
  playwright: { call: /\bchromium\.(launch|launchPersistentContext|connect|connectOverCDP)\(/ },
  // The outbound policy's own entries: a call made through one of these meets it.
  GuardedClient: { call: /\bnew GuardedClient\(/ },
  GuardedHttpsAgent: { call: /\bnew GuardedHttpsAgent\(/ },
  GuardedBrowser: { call: /\bnew GuardedBrowser\(/ },
  ForwardProxy: { call: /\bForwardProxy\.start\(/ },
};

/** Source folders that are not the product: test helpers (`src/testing`), unit tests, the fakes. */
const excluded = (path: string) =>
  path.startsWith('packages/fakes/') || path.includes('/src/testing/') || /\.spec\.tsx?$/.test(path);

/** The code of a file without its comment lines (a comment naming fetch( is not a call). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n');
}

/** Every file under packages/<name>/src that opens connections, and the kinds it opens (sorted). */
export function outboundSites(): Record<string, string[]> {
  const sites: Record<string, string[]> = {};
  for (const file of sourceFiles(join(root, 'packages')).filter((path) => path.includes('/src/'))) {
    const path = relative(root, file);
    if (excluded(path)) continue;
    const kinds = new Set<string>();
    const imported = specifiersOf(file).flatMap(({ specifier, typeOnly }) => (typeOnly ? [] : [specifier]));
    for (const specifier of imported)
      for (const [kind, pattern] of Object.entries(IMPORTS)) if (pattern.test(specifier)) kinds.add(kind);
    const text = code(file);
    for (const [kind, { call, module }] of Object.entries(CALLS))
      if (call.test(text) && (!module || imported.some((specifier) => module.test(specifier))))
        kinds.add(kind);
    if (kinds.size) sites[path] = [...kinds].sort();
  }
  return sites;
}

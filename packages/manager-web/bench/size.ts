// `npm run bench manager-web`: the built web client's size, gzipped (level 9), JS + CSS. Builds it first
// when dist/ is missing or older than its sources.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureBuilt, packageDir } from '../test/browser.ts';

await ensureBuilt();
const dist = join(packageDir, 'dist');
const assets = join(dist, 'assets');
const index = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set([...index.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]));

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
let raw = 0;
let gzip = 0;
let initialGzip = 0;
const rows: string[] = [];
for (const file of readdirSync(assets)
  .filter((name) => /\.(js|css)$/.test(name))
  .sort()) {
  const content = readFileSync(join(assets, file));
  const zipped = gzipSync(content, { level: 9 }).length;
  raw += content.length;
  gzip += zipped;
  if (initial.has(file)) initialGzip += zipped;
  rows.push(
    `  ${file.padEnd(36)} ${kib(content.length).padStart(11)} ${kib(zipped).padStart(11)} gz${initial.has(file) ? '  (initial load)' : ''}`,
  );
}
console.log('Manager web client (packages/manager-web/dist), JS + CSS:');
console.log(rows.join('\n'));
console.log(`total: ${kib(raw)} raw, ${kib(gzip)} gzipped; first page load: ${kib(initialGzip)} gzipped`);

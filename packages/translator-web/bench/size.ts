// Prints the built dashboard's size: every JS and CSS file of dist/assets, raw and gzipped, and what the
// first load (index.html's script and stylesheet plus their static imports) transfers. Builds when missing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { distDir, ensureBuilt } from '../test/browser.ts';

await ensureBuilt();
const assets = join(distDir, 'assets');
if (!existsSync(assets)) throw new Error('no dist/assets after the build');
const files = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
const size = (name: string) => {
  const bytes = readFileSync(join(assets, name));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// First load: the entry chunk and stylesheet named in index.html, plus the chunks they import statically.
const html = readFileSync(join(distDir, 'index.html'), 'utf8');
const initial = new Set<string>();
const queue = [...html.matchAll(/\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
while (queue.length) {
  const name = queue.pop()!;
  if (initial.has(name)) continue;
  initial.add(name);
  if (name.endsWith('.js')) {
    const code = readFileSync(join(assets, name), 'utf8');
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g))
      queue.push(m[1]!);
  }
}

let total = { raw: 0, gzip: 0 };
let first = { raw: 0, gzip: 0 };
for (const name of files.sort()) {
  const s = size(name);
  total = { raw: total.raw + s.raw, gzip: total.gzip + s.gzip };
  if (initial.has(name)) first = { raw: first.raw + s.raw, gzip: first.gzip + s.gzip };
}
const js = files.filter((n) => n.endsWith('.js')).reduce((n, f) => n + size(f).gzip, 0);
const css = files.filter((n) => n.endsWith('.css')).reduce((n, f) => n + size(f).gzip, 0);
console.log(`translator dashboard: ${files.length} JS/CSS files`);
console.log(`  all JS + CSS: ${kb(total.raw)} raw, ${kb(total.gzip)} gzipped (JS ${kb(js)}, CSS ${kb(css)})`);
console.log(`  first load (${initial.size} files): ${kb(first.raw)} raw, ${kb(first.gzip)} gzipped`);

// JavaScript, not TypeScript: Vite loads the web clients' configs with Node, which imports a workspace
// package's files from node_modules as they are (types in precompress.d.mts).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** What is worth compressing: text formats, above a size where the headers would outweigh the saving. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;

/** @param {string} dir @returns {Generator<string>} */
function* filesIn(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesIn(path);
    else yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` beside every compressible file of the build,
 * once, at build time: the services serve them to browsers that accept them (@fastify/static's
 * preCompressed), so no request pays for compression.
 * @returns {import('vite').Plugin}
 */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of [...filesIn(outDir)]) {
        if (!COMPRESSIBLE.test(path)) continue;
        const source = readFileSync(path);
        if (source.length < MIN_BYTES) continue;
        const brotli = brotliCompressSync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        writeFileSync(`${path}.br`, brotli);
        writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

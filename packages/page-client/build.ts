import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface ClientBundle {
  code: string;
  /** First 12 hex digits of the SHA-256 of the code: the versioned URL's part. */
  hash: string;
}

let bundle: Promise<ClientBundle> | undefined;

/** The page client as one minified script, built once per process (esbuild takes a few ms). */
export function clientBundle(): Promise<ClientBundle> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('./src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
  }).then((result) => {
    const code = result.outputFiles[0]!.text;
    return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 12) };
  });
  return bundle;
}

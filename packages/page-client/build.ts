// The page client as one minified script. Tests and `tsx` import this (the "source" export condition)
// and bundle on the fly; `npm run build` runs it to write dist/client.js, which the built translator
// serves through prebuilt.ts without esbuild, with dist/editor.js (the in-page editor, loaded apart) and
// dist/render.js (its whole-document translation for the translator's SEO pages).
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  clientBundleOf,
  type ClientBundle,
  type ClientBundleLoader,
  type DocumentRenderer,
  type DocumentRendererLoader,
} from './bundle.ts';

export type { ClientBundle, DocumentRenderer } from './bundle.ts';

const RENDER_SOURCE = fileURLToPath(new URL('./src/render.ts', import.meta.url));

async function bundleCode(entry: string, format: 'iife' | 'esm'): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    minify: format === 'iife',
    format,
    target: ['es2020'],
    // Workspace packages (@app/slots) are bundled from their TypeScript sources.
    conditions: ['source'],
    write: false,
    legalComments: 'none',
  });
  return result.outputFiles[0]!.text;
}

let bundle: Promise<ClientBundle> | undefined;

/** Built once per process (esbuild takes a few ms). */
export const clientBundle: ClientBundleLoader = () =>
  (bundle ??= Promise.all([
    bundleCode('./src/index.ts', 'iife'),
    bundleCode('./src/editor-entry.ts', 'iife'),
  ]).then(([code, editor]) => clientBundleOf(code, editor)));

/** From the sources (a path import: the server packages' type check never reads DOM code). */
export const documentRenderer: DocumentRendererLoader = () =>
  import(RENDER_SOURCE) as Promise<DocumentRenderer>;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('./dist/client.js', import.meta.url);
  await mkdir(new URL('.', out), { recursive: true });
  await writeFile(out, await bundleCode('./src/index.ts', 'iife'));
  await writeFile(
    new URL('./dist/editor.js', import.meta.url),
    await bundleCode('./src/editor-entry.ts', 'iife'),
  );
  await writeFile(new URL('./dist/render.js', import.meta.url), await bundleCode('./src/render.ts', 'esm'));
  console.log(`page client bundled into ${fileURLToPath(new URL('.', out))}`);
}

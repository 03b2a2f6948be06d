// The page client as one minified script. Tests and `tsx` import this (the "source" export condition)
// and bundle on the fly; `npm run build` runs it to write dist/client.js, which the built translator
// serves through prebuilt.ts without esbuild.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { clientBundleOf, type ClientBundle, type ClientBundleLoader } from './bundle.ts';

export type { ClientBundle } from './bundle.ts';

async function bundleCode(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
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
export const clientBundle: ClientBundleLoader = () => (bundle ??= bundleCode().then(clientBundleOf));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('./dist/client.js', import.meta.url);
  await mkdir(new URL('.', out), { recursive: true });
  await writeFile(out, await bundleCode());
  console.log(`page client bundled into ${fileURLToPath(out)}`);
}

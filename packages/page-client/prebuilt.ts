import { readFile } from 'node:fs/promises';
import { clientBundleOf, type ClientBundle, type ClientBundleLoader } from './bundle.ts';

let bundle: Promise<ClientBundle> | undefined;

/** The page client bundled by `npm run build` (dist/client.js, next to this file once compiled). */
export const clientBundle: ClientBundleLoader = () =>
  (bundle ??= readFile(new URL('./client.js', import.meta.url), 'utf8').then(clientBundleOf));

import { readFile } from 'node:fs/promises';
import {
  clientBundleOf,
  type ClientBundle,
  type ClientBundleLoader,
  type DocumentRenderer,
  type DocumentRendererLoader,
} from './bundle.ts';

export type { ClientBundle, DocumentRenderer } from './bundle.ts';

let bundle: Promise<ClientBundle> | undefined;

/** The page client bundled by `npm run build` (dist/client.js and dist/editor.js, next to this file once compiled). */
export const clientBundle: ClientBundleLoader = () =>
  (bundle ??= Promise.all([
    readFile(new URL('./client.js', import.meta.url), 'utf8'),
    readFile(new URL('./editor.js', import.meta.url), 'utf8'),
  ]).then(([code, editor]) => clientBundleOf(code, editor)));

/** The whole-document translation bundled by `npm run build` (dist/render.js). */
export const documentRenderer: DocumentRendererLoader = () =>
  import(new URL('./render.js', import.meta.url).href) as Promise<DocumentRenderer>;

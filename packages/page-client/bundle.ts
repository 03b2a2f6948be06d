import { createHash } from 'node:crypto';

export interface ClientBundle {
  code: string;
  /** First 12 hex digits of the SHA-256 of the code: the versioned URL's part. */
  hash: string;
}

/** What `@app/page-client` exports, from the sources (build.ts) and from the build (prebuilt.ts) alike. */
export type ClientBundleLoader = () => Promise<ClientBundle>;

export const clientBundleOf = (code: string): ClientBundle => ({
  code,
  hash: createHash('sha256').update(code).digest('hex').slice(0, 12),
});

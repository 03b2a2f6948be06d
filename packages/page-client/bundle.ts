import { createHash } from 'node:crypto';

export interface ClientBundle {
  code: string;
  /** The in-page editor's own script, loaded by the client only on a page opened to edit. */
  editor: string;
  /** First 12 hex digits of the SHA-256 of the code: the versioned URL's part. */
  hash: string;
}

/** What `@app/page-client` exports, from the sources (build.ts) and from the build (prebuilt.ts) alike. */
export type ClientBundleLoader = () => Promise<ClientBundle>;

/**
 * The page client's whole-document translation (src/render.ts) for the translator's SEO pages. Typed
 * without the DOM library, which the server packages do not compile with: `document` is a DOM Document
 * (linkedom's on the server), and the config is the project's crawler configuration.
 */
export interface DocumentRenderer {
  translateDocument(
    document: object,
    options: {
      config: {
        blockedTags: string[];
        inlineTags: string[];
        domContextSelectors: string[];
        contextDepth: number;
        domContextEnabled: boolean;
      };
      language: string;
      translations: { key: string; context: string; value: string }[];
      register(key: string, context: string, slots?: string[]): void;
    },
  ): void;
}

export type DocumentRendererLoader = () => Promise<DocumentRenderer>;

export const clientBundleOf = (code: string, editor: string): ClientBundle => ({
  code,
  editor,
  hash: createHash('sha256').update(code).digest('hex').slice(0, 12),
});

import type { TranslationState } from '../db/schema.ts';

/** The file formats translators exchange with CAT tools and code, by the name the API takes. */
export const FILE_FORMATS = ['xliff12', 'xliff20', 'po', 'csv', 'json', 'json-nested'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** One phrase as an exported file carries it. */
export interface FileUnit {
  id: number;
  /** The source text, slot tokens (`{{number:0}}`, `{{text:1}}`) included. */
  key: string;
  context: string;
  /** The translation into the file's language; null when there is none yet. */
  value: string | null;
  state: TranslationState | null;
}

export interface FileHeader {
  project: string;
  sourceLang: string;
  lang: string;
}

/** One unit as an import reads it back. */
export interface ReadUnit {
  key: string;
  context: string;
  /** The translation; empty when the file has none. */
  value: string;
  /** Marked unfinished in the file (PO `fuzzy`, XLIFF `new`/`needs-…`/`initial`): not imported. */
  unfinished: boolean;
}

export interface ReadFile {
  /** The target language the file declares, where the format has a place for it. */
  lang?: string | undefined;
  units: ReadUnit[];
}

export interface Codec {
  extension: string;
  contentType: string;
  write(header: FileHeader, units: FileUnit[]): string;
  /** Reads a file; throws FileError when it is not one of this format. */
  read(text: string): ReadFile;
}

/** A file that cannot be read as its format, with where and why. */
export class FileError extends Error {}

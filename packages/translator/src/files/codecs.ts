import type { Codec, FileFormat } from './exchange.ts';
import { csv } from './csv.ts';
import { json, jsonNested } from './json.ts';
import { po } from './po.ts';
import { xliff12, xliff20 } from './xliff.ts';

export const CODECS: Record<FileFormat, Codec> = {
  xliff12,
  xliff20,
  po,
  csv,
  json,
  'json-nested': jsonNested,
};

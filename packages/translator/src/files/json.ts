import { FileError, type Codec, type FileHeader, type FileUnit, type ReadUnit } from './exchange.ts';

/** A flat file's key for a phrase with a context: gettext's convention, the context and an EOT before the key. */
const CONTEXT_SEPARATOR = '\u0004';

function parse(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new FileError(`not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new FileError('not a JSON object');
  return value as Record<string, unknown>;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new FileError(`${where}: the translation must be a string`);
  return value;
}

/** Flat: `{ "source": "translation" }`; untranslated phrases are there with "". */
export const json: Codec = {
  extension: 'json',
  contentType: 'application/json',
  write: (_header: FileHeader, units: FileUnit[]) =>
    `${JSON.stringify(
      Object.fromEntries(
        units.map((unit) => [
          unit.context ? `${unit.context}${CONTEXT_SEPARATOR}${unit.key}` : unit.key,
          unit.value ?? '',
        ]),
      ),
      null,
      2,
    )}\n`,
  read: (file: string) => ({
    units: Object.entries(parse(file)).map(([name, value]): ReadUnit => {
      const separator = name.indexOf(CONTEXT_SEPARATOR);
      return {
        key: separator < 0 ? name : name.slice(separator + 1),
        context: separator < 0 ? '' : name.slice(0, separator),
        value: text(value, JSON.stringify(name)),
        unfinished: false,
      };
    }),
  }),
};

/** Nested by context: `{ "context": { "source": "translation" } }`, "" for phrases without one. */
export const jsonNested: Codec = {
  extension: 'json',
  contentType: 'application/json',
  write: (_header: FileHeader, units: FileUnit[]) => {
    // Without a prototype, a context or key named "__proto__" is a name like any other.
    const byContext: Record<string, Record<string, string>> = Object.create(null);
    for (const unit of units) (byContext[unit.context] ??= Object.create(null))[unit.key] = unit.value ?? '';
    return `${JSON.stringify(byContext, null, 2)}\n`;
  },
  read: (file: string) => ({
    units: Object.entries(parse(file)).flatMap(([context, phrases]) => {
      if (!phrases || typeof phrases !== 'object' || Array.isArray(phrases)) {
        throw new FileError(`${JSON.stringify(context)}: must be an object of source → translation`);
      }
      return Object.entries(phrases).map(([key, value]): ReadUnit => ({
        key,
        context,
        value: text(value, JSON.stringify(key)),
        unfinished: false,
      }));
    }),
  }),
};

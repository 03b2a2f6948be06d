import { FileError, type Codec, type FileHeader, type FileUnit, type ReadUnit } from './exchange.ts';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r' };
const UNESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '?': '?',
};

/** A control character as a PO octal escape; C1 controls stay as they are (octal means a byte there). */
const octal = (c: string) =>
  c.charCodeAt(0) < 0x80 ? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}` : c;

/** A PO string: C escapes, other control characters as octal, split after each newline as gettext does. */
function quote(text: string): string {
  const escaped = (line: string) => `"${line.replace(/[\\"]|\p{Cc}/gu, (c) => ESCAPES[c] ?? octal(c))}"`;
  const lines = text.split(/(?<=\n)/);
  return lines.length > 1 ? `""\n${lines.map(escaped).join('\n')}` : escaped(text);
}

function write(header: FileHeader, units: FileUnit[]): string {
  const head = [
    `# Translations of ${header.project.replace(/\s+/g, ' ')} into ${header.lang}.`,
    `# Machine translations are marked fuzzy; an import leaves fuzzy entries alone.`,
    'msgid ""',
    'msgstr ""',
    `"Project-Id-Version: ${header.project.replace(/[\\"\n\r]/g, ' ')}\\n"`,
    `"Language: ${header.lang}\\n"`,
    '"MIME-Version: 1.0\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Content-Transfer-Encoding: 8bit\\n"',
    `"X-Source-Language: ${header.sourceLang}\\n"`,
  ].join('\n');
  const entries = units.map((unit) =>
    [
      `#. id ${unit.id}`,
      ...(unit.state === 'machine' ? ['#, fuzzy'] : []),
      ...(unit.context ? [`msgctxt ${quote(unit.context)}`] : []),
      `msgid ${quote(unit.key)}`,
      `msgstr ${quote(unit.value ?? '')}`,
    ].join('\n'),
  );
  return `${[head, ...entries].join('\n\n')}\n`;
}

/** The string of a quoted PO line (`"…"`), escapes resolved. */
function unquote(line: string, lineNumber: number): string {
  const match = /^"((?:[^"\\]|\\.)*)"$/.exec(line);
  if (!match) throw new FileError(`line ${lineNumber}: expected a quoted string, found ${line.slice(0, 40)}`);
  return match[1]!.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, escape: string) => {
    if (escape[0] === 'x') return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8));
    const known = UNESCAPES[escape];
    if (known === undefined) throw new FileError(`line ${lineNumber}: unknown escape \\${escape}`);
    return known;
  });
}

interface Entry {
  fields: Map<string, string>;
  flags: string[];
  line: number;
}

/** Splits a PO file into entries (keyword → string, flags); obsolete (`#~`) lines are skipped. */
function entries(text: string): Entry[] {
  const found: Entry[] = [];
  let entry: Entry | undefined;
  let field: string | undefined;
  const begin = (line: number) => {
    entry = { fields: new Map(), flags: [], line };
    found.push(entry);
    field = undefined;
    return entry;
  };
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      const number = index + 1;
      if (!line) entry = undefined;
      else if (line.startsWith('#~')) return;
      else if (line.startsWith('#')) {
        const current = !entry || entry.fields.size ? begin(number) : entry;
        if (line.startsWith('#,'))
          current.flags.push(
            ...line
              .slice(2)
              .split(',')
              .map((flag) => flag.trim()),
          );
      } else if (/^msg/.test(line)) {
        const keyword = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)$/.exec(line);
        if (!keyword) throw new FileError(`line ${number}: not PO syntax: ${line.slice(0, 40)}`);
        // msgctxt and msgid open an entry unless they continue one that has only comments (or msgctxt).
        const opens =
          !entry ||
          (keyword[1] === 'msgctxt' && entry.fields.size > 0) ||
          (keyword[1] === 'msgid' && entry.fields.has('msgid'));
        const current = opens ? begin(number) : entry!;
        field = keyword[1]!;
        current.fields.set(field, unquote(keyword[2]!, number));
      } else if (line.startsWith('"') && entry && field) {
        entry.fields.set(field, entry.fields.get(field)! + unquote(line, number));
      } else throw new FileError(`line ${number}: not PO syntax: ${line.slice(0, 40)}`);
    });
  return found.filter((found) => found.fields.size);
}

function read(text: string) {
  let lang: string | undefined;
  const units: ReadUnit[] = [];
  for (const entry of entries(text)) {
    const key = entry.fields.get('msgid');
    if (key === undefined) throw new FileError(`line ${entry.line}: an entry without msgid`);
    if (key === '' && !entry.fields.has('msgctxt')) {
      lang = /^Language:\s*(\S+)/m.exec(entry.fields.get('msgstr') ?? '')?.[1];
      continue;
    }
    if (entry.fields.has('msgid_plural')) {
      throw new FileError(`line ${entry.line}: plural entries are not phrases of this project`);
    }
    units.push({
      key,
      context: entry.fields.get('msgctxt') ?? '',
      value: entry.fields.get('msgstr') ?? '',
      unfinished: entry.flags.includes('fuzzy'),
    });
  }
  return { lang, units };
}

export const po: Codec = { extension: 'po', contentType: 'text/x-gettext-translation', write, read };

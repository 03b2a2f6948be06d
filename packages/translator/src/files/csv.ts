import { FileError, type Codec, type FileHeader, type FileUnit, type ReadUnit } from './exchange.ts';

const COLUMNS = ['id', 'context', 'source', 'target', 'state'] as const;
/**
 * Spreadsheets run a cell that starts with one of these as a formula: such cells get a leading `'`
 * (as OWASP advises), and an import takes exactly one `'` off a cell that has it before one of them.
 */
const FORMULA = /^'*[=+\-@\t\r]/;

function cell(text: string): string {
  const safe = FORMULA.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const uncell = (text: string) => (FORMULA.test(text) && text.startsWith("'") ? text.slice(1) : text);

function write(_header: FileHeader, units: FileUnit[]): string {
  const rows = units.map((unit) =>
    [String(unit.id), unit.context, unit.key, unit.value ?? '', unit.state ?? ''].map(cell).join(','),
  );
  // A byte order mark makes spreadsheets read the file as UTF-8.
  return `\uFEFF${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

interface CsvRecord {
  fields: string[];
  line: number;
}

/** The records of RFC 4180 text (quoted fields may hold commas, quotes and line breaks). */
function records(text: string): CsvRecord[] {
  const found: CsvRecord[] = [];
  let record: CsvRecord = { fields: [], line: 1 };
  let field = '';
  let line = 1;
  let quoted = false;
  let closed = false;
  const endField = () => {
    record.fields.push(field);
    field = '';
    closed = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') i++;
      else if (c === '"') {
        quoted = false;
        closed = true;
        continue;
      } else if (c === '\n') line++;
      field += c;
    } else if (c === '"' && field === '' && !closed) quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endField();
      if (record.fields.length > 1 || record.fields[0] !== '') found.push(record);
      record = { fields: [], line: ++line };
    } else if (closed) throw new FileError(`line ${line}: text after a closing quote`);
    else field += c;
  }
  if (quoted) throw new FileError(`line ${record.line}: a quoted field is not closed`);
  if (field !== '' || record.fields.length) {
    endField();
    found.push(record);
  }
  return found;
}

function read(text: string) {
  const [head, ...rows] = records(text.replace(/^\uFEFF/, ''));
  const names = head?.fields.map((name) => name.trim().toLowerCase()) ?? [];
  const column = (name: string) => {
    const index = names.indexOf(name);
    if (index < 0) throw new FileError(`the first line must name the columns; "${name}" is missing`);
    return index;
  };
  const [source, target] = [column('source'), column('target')];
  const context = names.indexOf('context');
  const units = rows.map(({ fields, line }): ReadUnit => {
    if (fields.length !== names.length) {
      throw new FileError(`line ${line}: ${fields.length} fields where the first line names ${names.length}`);
    }
    return {
      key: uncell(fields[source]!),
      context: context < 0 ? '' : uncell(fields[context]!),
      value: uncell(fields[target]!),
      unfinished: false,
    };
  });
  return { units };
}

export const csv: Codec = { extension: 'csv', contentType: 'text/csv', write, read };

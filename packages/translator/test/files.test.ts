// Translation files for translators (XLIFF 1.2 and 2.0, PO, CSV, flat and nested JSON) over the real
// server: exported files checked by the formats' own tools (msgfmt, xmllint with the OASIS schemas), a
// 2,000-phrase export → import round trip that changes nothing, and imports that change what they say.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslationsRepository } from '../src/translations/translations-repository.ts';
import { startHarness, type Harness } from './helpers.ts';

const FORMATS = ['xliff12', 'xliff20', 'po', 'csv', 'json', 'json-nested'] as const;
const SCHEMAS = fileURLToPath(new URL('./fixtures/xliff-schemas/', import.meta.url));
const PHRASES = 2000;

let h: Harness;
let dir: string;

interface Row {
  id: number;
  key: string;
  context: string;
  value: string | null;
  state: string | null;
  translationId: number | null;
}

/** Source texts that test a format's escaping; the rest are plain sentences (numbers become slots). */
const TRICKY = [
  'Tom & Jerry <b>"quoted"</b>',
  'Line one\nLine two',
  '=SUM(A1:A3) in a cell',
  "Back\\slash and 'single' quotes",
  'Ümlauts, ß, 日本語 and 🥖',
  '-20% on {{text:0}} today',
];

/** Distinct in letters (numbers would become the same slot), with one number slot. */
const keyOf = (index: number) =>
  index < TRICKY.length
    ? TRICKY[index]!
    : `Sentence ${index.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)} costs ${index % 90} euros`;

async function allRows(lang = 'fr'): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const body = (await h.client.get(`/api/translations/all?lang=${lang}&limit=500&page=${page}`)).body;
    rows.push(...(body.rows as Row[]));
    if (rows.length >= body.total) return rows.sort((a, b) => a.id - b.id);
  }
}

async function historyCount(): Promise<number> {
  const row = await h.translator.ctx.db
    .selectFrom('translation_history')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const exported = async (format: string, lang = 'fr') => {
  const response = await h.client.get(`/api/files/${lang}?format=${format}`);
  expect(response.status).toBe(200);
  return response.text;
};
const imported = (format: string, text: string, query = '', lang = 'fr') =>
  h.client.request('POST', `/api/files/${lang}?format=${format}${query}`, {
    body: text,
    headers: { 'content-type': 'application/octet-stream' },
  });

beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'translation-files-'));
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
  for (let start = 0; start < PHRASES; start += 1000) {
    const keys = Array.from({ length: Math.min(1000, PHRASES - start) }, (_, i) => ({
      key: keyOf(start + i),
      context: (start + i) % 7 === 0 ? `section ${(start + i) % 3 ? 'main' : 'footer'}` : '',
    }));
    expect((await h.client.post('/api/textnodes', { url: 'https://bakery.test/', keys })).status).toBe(200);
  }
  const rows = await allRows();
  expect(rows).toHaveLength(PHRASES);
  await h.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
  // Three of every four translated: by people, by a machine (as an AI job writes), some reviewed.
  const french = (row: Row) => `FR ${row.key}`;
  const human = rows.filter((_, i) => i % 4 === 0 || i % 4 === 1);
  for (let start = 0; start < human.length; start += 1000) {
    const part = human.slice(start, start + 1000);
    const saved = await h.client.post('/api/translations', {
      lang: 'fr',
      translations: part.map((row) => ({ id: row.id, value: french(row) })),
    });
    expect(saved.status).toBe(200);
  }
  const machine = rows.filter((_, i) => i % 4 === 2);
  await new TranslationsRepository(h.translator.ctx.db).save(
    h.translator.defaultProject.project.id,
    'fr',
    new Map(machine.map((row) => [row.id, french(row)])),
    { state: 'machine', source: 'ai', actor: 'ai-job:test' },
  );
  const reviewed = (await allRows()).filter((row, i) => i % 4 === 1).map((row) => row.translationId!);
  await h.client.patch('/api/translations/state', { ids: reviewed, state: 'reviewed' });
}, 120_000);

afterAll(async () => {
  await h?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('translation files', () => {
  it('exports XLIFF 1.2 and 2.0 that the OASIS schemas accept, and PO that msgfmt --check accepts', async () => {
    const check = (name: string, text: string, command: string, args: string[]) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      // Throws with the tool's complaint when the file is not valid.
      execFileSync(command, [...args, path], { stdio: 'pipe' });
    };
    check('fr-12.xlf', await exported('xliff12'), 'xmllint', [
      '--noout',
      '--nonet',
      '--schema',
      join(SCHEMAS, 'xliff-core-1.2-strict.xsd'),
    ]);
    check('fr-20.xlf', await exported('xliff20'), 'xmllint', [
      '--noout',
      '--nonet',
      '--schema',
      join(SCHEMAS, 'xliff_core_2.0.xsd'),
    ]);
    check('fr.po', await exported('po'), 'msgfmt', ['--check', '-o', '/dev/null']);
    const response = await h.client.get('/api/files/fr?format=xliff20');
    expect(response.headers.get('content-type')).toBe('application/xliff+xml; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="translations-fr.xlf"');
  });

  it.each(FORMATS)(
    '%s: exporting 2,000 phrases and importing the file back changes nothing',
    async (format) => {
      const before = await allRows();
      const entries = await historyCount();
      const report = await imported(format, await exported(format));
      expect(report.status).toBe(200);
      const translated = before.filter((row) => row.value !== null);
      // PO carries machine translations as fuzzy, which an import leaves alone.
      const fuzzy = format === 'po' ? translated.filter((row) => row.state === 'machine').length : 0;
      expect(report.body).toMatchObject({
        format,
        lang: 'fr',
        dryRun: false,
        units: PHRASES,
        changed: 0,
        unchanged: translated.length - fuzzy,
        skipped: PHRASES - translated.length + fuzzy,
        unknown: 0,
      });
      expect(await allRows()).toEqual(before);
      expect(await historyCount()).toBe(entries);
    },
  );

  it('imports the translations a translator changed, as human ones with an import entry in the history', async () => {
    const rows = await allRows();
    const text = await exported('xliff20');
    const [first, second] = [rows[1]!, rows[4]!];
    const untranslated = rows.find((row) => row.value === null && row.key.startsWith('Sentence'))!;
    const edited = text
      .replace(
        `>FR ${first.key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}<`,
        '>Nouveau texte<',
      )
      .replace(`>FR ${second.key}<`, '>Autre texte<')
      .replace(
        new RegExp(
          `(<unit id="u${untranslated.id}">[\\s\\S]*?<segment state=")initial(">[\\s\\S]*?</source>)`,
        ),
        `$1translated$2<target>Enfin traduit : <ph id="number-0"/> euros</target>`,
      );
    expect(edited).not.toBe(text);

    const entries = await historyCount();
    const preview = await imported('xliff20', edited, '&dryRun=true');
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dryRun: true, changed: 3, created: 1, updated: 2 });
    expect(preview.body.changes).toEqual([
      { phraseId: first.id, key: first.key, context: first.context, old: first.value, new: 'Nouveau texte' },
      {
        phraseId: second.id,
        key: second.key,
        context: second.context,
        old: second.value,
        new: 'Autre texte',
      },
      {
        phraseId: untranslated.id,
        key: untranslated.key,
        context: untranslated.context,
        old: null,
        new: 'Enfin traduit : {{number:0}} euros',
      },
    ]);
    expect(await historyCount()).toBe(entries);

    const done = await imported('xliff20', edited);
    expect(done.body).toMatchObject({ dryRun: false, changed: 3 });
    const after = new Map((await allRows()).map((row) => [row.id, row]));
    expect(after.get(first.id)).toMatchObject({ value: 'Nouveau texte', state: 'human' });
    expect(after.get(untranslated.id)).toMatchObject({
      value: 'Enfin traduit : {{number:0}} euros',
      state: 'human',
    });
    const history = await h.client.get(`/api/translations/history?phrase_id=${second.id}&lang=fr`);
    expect(history.body.entries[0]).toMatchObject({
      oldValue: second.value,
      newValue: 'Autre texte',
      source: 'import',
    });
    const delivered = (await h.client.get('/api/translations?lang=fr')).body as {
      key: string;
      value: string;
    }[];
    expect(delivered.find((entry) => entry.key === untranslated.key)?.value).toBe(
      'Enfin traduit : {{number:0}} euros',
    );
  });

  it('refuses a file whose translations lose a slot, naming the unit, and imports nothing of it', async () => {
    const rows = await allRows();
    const slotted = rows.find(
      (row) => row.key.startsWith('Sentence') && row.value !== null && row.state !== 'machine',
    )!;
    const plain = rows.find((row) => row.key === 'Tom & Jerry <b>"quoted"</b>')!;
    const file = {
      [plain.key]: 'Tom et Jerry',
      [slotted.context ? `${slotted.context}\u0004${slotted.key}` : slotted.key]: 'Phrase sans son nombre',
    };
    const entries = await historyCount();
    const refused = await imported('json', JSON.stringify(file));
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('slot_mismatch');
    expect(refused.body.error.fields).toEqual({
      'units.1': `"${slotted.key}": the translation must keep exactly the slots of the source`,
    });
    expect(await historyCount()).toBe(entries);
    expect((await allRows()).find((row) => row.id === plain.id)?.value).toBe(plain.value);
  });

  it('takes the last of two units for one phrase, counted once', async () => {
    const key = TRICKY[3]!;
    const file = `source,target\r\n${key},Premier\r\n${key},Second\r\n`;
    const report = await imported('csv', file, '&dryRun=true');
    expect(report.body).toMatchObject({ units: 2, changed: 1, created: 1, updated: 0 });
    expect(report.body.changes.map((change: { new: string }) => change.new)).toEqual(['Second']);
  });

  it('reports units naming no phrase and leaves them out', async () => {
    const report = await imported('csv', 'source,target\r\nNo such phrase,Aucune\r\n', '&dryRun=true');
    expect(report.body).toMatchObject({ units: 1, unknown: 1, changed: 0 });
    expect(report.body.unknownUnits).toEqual([{ key: 'No such phrase', context: '' }]);
  });

  it('answers a file it cannot read, another language’s file and unknown languages with what to do', async () => {
    const broken = await imported('xliff12', '<xliff version="1.2"');
    expect(broken.status).toBe(422);
    expect(broken.body.error).toMatchObject({ code: 'invalid_file' });
    expect(broken.body.error.message).toMatch(/^This is not a readable xliff12 file: /);

    const german = await imported('po', await exported('po', 'de'));
    expect(german.status).toBe(422);
    expect(german.body.error).toMatchObject({
      code: 'invalid_file',
      message: 'The file is for "de", not "fr": import it into its own language.',
    });

    expect((await h.client.get('/api/files/es?format=po')).status).toBe(404);
    const unknown = await imported('po', 'msgid ""\nmsgstr ""\n', '', 'es');
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({
      code: 'unknown_language',
      fields: { lang: 'is not configured' },
    });
    expect((await h.client.get('/api/files/fr?format=docx')).status).toBe(400);
  });
});

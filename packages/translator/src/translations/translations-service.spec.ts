import { beforeEach, describe, expect, it } from 'vitest';
import { PhrasesService } from '../phrases/phrases-service.ts';
import { DEFAULT_SETTINGS } from '../projects/settings.ts';
import { InMemoryPhrasesRepository } from '../testing/in-memory-phrases-repository.ts';
import { InMemoryTables } from '../testing/in-memory-tables.ts';
import { InMemoryTranslationsRepository } from '../testing/in-memory-translations-repository.ts';
import { PERSON, RecordedChanges, unitContext } from '../testing/unit-context.ts';
import { TranslationsService } from './translations-service.ts';

const PROJECT = 1;
const OTHER_PROJECT = 2;
const settings = { ...DEFAULT_SETTINGS, languages: ['de', 'fr'] };

describe('TranslationsService', () => {
  let tables: InMemoryTables;
  let changes: RecordedChanges;
  let phrases: PhrasesService;
  let translations: TranslationsService;

  beforeEach(async () => {
    tables = new InMemoryTables();
    changes = new RecordedChanges();
    phrases = new PhrasesService(new InMemoryPhrasesRepository(tables), () => {});
    translations = new TranslationsService(
      unitContext(),
      new InMemoryTranslationsRepository(tables),
      changes,
      // A project without a glossary (the glossary's checks have their own tests).
      { rulesFor: async () => [] },
    );
    await phrases.register(PROJECT, [{ key: 'Hello' }, { key: '{{number:0}} items' }], 'https://shop/cart');
    await phrases.register(OTHER_PROJECT, [{ key: 'Theirs' }], undefined);
    await phrases.setStatus(PROJECT, [idOf('Hello'), idOf('{{number:0}} items')], 'approved');
  });

  const idOf = (key: string) => tables.phrases.find((row) => row.key === key)!.id;
  const delivered = async (lang: string) =>
    JSON.parse(
      (await translations.deliver({ id: PROJECT, settings }, lang)).body.toString('utf8'),
    ) as unknown;

  describe('upsert', () => {
    it('saves by key or by id, matching a concrete key through its slots, and counts new and replaced', async () => {
      const first = await translations.upsert(
        PROJECT,
        settings,
        'de',
        [{ key: 'Hello', value: 'Hallo' }],
        PERSON,
      );
      expect(first).toEqual({ ok: true, saved: 1, created: 1, updated: 0 });
      const second = await translations.upsert(
        PROJECT,
        settings,
        'de',
        [
          { id: idOf('Hello'), value: 'Guten Tag' },
          { key: '3 items', value: '{{number:0}} Artikel' },
        ],
        PERSON,
      );
      expect(second).toEqual({ ok: true, saved: 2, created: 1, updated: 1 });
      expect(await translations.approved(PROJECT, 'de')).toEqual([
        { key: 'Hello', context: '', value: 'Guten Tag' },
        { key: '{{number:0}} items', context: '', value: '{{number:0}} Artikel' },
      ]);
    });

    it('refuses a language the project does not have (422 unknown_language)', async () => {
      await expect(
        translations.upsert(PROJECT, settings, 'it', [{ key: 'Hello', value: 'Ciao' }], PERSON),
      ).rejects.toMatchObject({
        statusCode: 422,
        code: 'unknown_language',
        fields: { lang: 'is not configured' },
      });
    });

    it('refuses an entry with neither id nor key (400, naming the entry)', async () => {
      await expect(
        translations.upsert(
          PROJECT,
          settings,
          'de',
          [{ key: 'Hello', value: 'Hallo' }, { value: 'lost' }],
          PERSON,
        ),
      ).rejects.toMatchObject({ statusCode: 400, fields: { 'translations.1': 'needs an id or a key' } });
      expect(tables.translations).toEqual([]);
    });

    it('saves nothing when one entry names no phrase of the project (422 unknown_phrase)', async () => {
      const attempt = translations.upsert(
        PROJECT,
        settings,
        'de',
        [
          { key: 'Hello', value: 'Hallo' },
          { id: idOf('Theirs'), value: 'Ihres' },
          { key: 'Nowhere', value: 'Nirgends' },
        ],
        PERSON,
      );
      await expect(attempt).rejects.toMatchObject({
        statusCode: 422,
        code: 'unknown_phrase',
        fields: {
          'translations.1': `no phrase ${idOf('Theirs')}`,
          'translations.2': 'no phrase has this key and context',
        },
      });
      expect(tables.translations).toEqual([]);
    });

    it('saves nothing when a value loses or adds slot tokens (422 slot_mismatch)', async () => {
      const attempt = translations.upsert(
        PROJECT,
        settings,
        'de',
        [
          { key: 'Hello', value: 'Hallo' },
          { id: idOf('{{number:0}} items'), value: 'viele Artikel' },
        ],
        PERSON,
      );
      await expect(attempt).rejects.toMatchObject({
        statusCode: 422,
        code: 'slot_mismatch',
        fields: { 'translations.1.value': 'must contain exactly the slot tokens of the key' },
      });
      expect(tables.translations).toEqual([]);
    });
  });

  it('delivers the approved translations and drops the cached copy when they change', async () => {
    await translations.upsert(PROJECT, settings, 'de', [{ key: 'Hello', value: 'Hallo' }], PERSON);
    expect(await delivered('de')).toEqual([{ key: 'Hello', context: '', value: 'Hallo' }]);
    await translations.upsert(PROJECT, settings, 'de', [{ key: 'Hello', value: 'Servus' }], PERSON);
    expect(await delivered('de')).toEqual([{ key: 'Hello', context: '', value: 'Servus' }]);
    expect(changes.announced).toEqual([
      ['data', PROJECT],
      ['data', PROJECT],
    ]);
  });

  it('does not deliver the translation of a phrase taken out of review', async () => {
    await translations.upsert(PROJECT, settings, 'de', [{ key: 'Hello', value: 'Hallo' }], PERSON);
    await phrases.setStatus(PROJECT, [idOf('Hello')], 'trash');
    expect(await translations.approved(PROJECT, 'de')).toEqual([]);
  });

  describe('list', () => {
    it('needs a language to filter on translated (400)', async () => {
      await expect(
        translations.list(PROJECT, { translated: 'yes', page: 1, limit: 10 }),
      ).rejects.toMatchObject({
        statusCode: 400,
        fields: { translated: 'needs lang' },
      });
    });

    it('shows each phrase with its translation and pages, newest first, filtered and paged', async () => {
      await translations.upsert(PROJECT, settings, 'de', [{ key: 'Hello', value: 'Hallo' }], PERSON);
      const all = await translations.list(PROJECT, { lang: 'de', page: 1, limit: 10 });
      expect(all.total).toBe(2);
      expect(all.rows.map((row) => [row.key, row.value, row.translated, row.urls])).toEqual([
        ['{{number:0}} items', null, false, ['https://shop/cart']],
        ['Hello', 'Hallo', true, ['https://shop/cart']],
      ]);
      const untranslated = await translations.list(PROJECT, {
        lang: 'de',
        translated: 'no',
        page: 1,
        limit: 10,
      });
      expect(untranslated.rows.map((row) => row.key)).toEqual(['{{number:0}} items']);
      const second = await translations.list(PROJECT, { lang: 'de', page: 2, limit: 1 });
      expect(second).toMatchObject({ total: 2, page: 2, rows: [{ key: 'Hello' }] });
    });
  });

  it('exports every language or one, and answers 404 unknown_language for another', async () => {
    await translations.upsert(PROJECT, settings, 'fr', [{ key: 'Hello', value: 'Bonjour' }], PERSON);
    const whole = await translations.exportDocument(PROJECT, settings);
    expect(whole.languages).toEqual(['de', 'fr']);
    expect(whole.translations).toEqual({ de: [], fr: [{ key: 'Hello', context: '', value: 'Bonjour' }] });
    expect((await translations.exportDocument(PROJECT, settings, 'fr')).languages).toEqual(['fr']);
    await expect(translations.exportDocument(PROJECT, settings, 'it')).rejects.toMatchObject({
      statusCode: 404,
      code: 'unknown_language',
    });
  });

  it('deletes a translation of its own project only', async () => {
    await translations.upsert(PROJECT, settings, 'de', [{ key: 'Hello', value: 'Hallo' }], PERSON);
    const [saved] = tables.translations;
    await expect(translations.deleteOne(OTHER_PROJECT, saved!.id, PERSON.actor)).rejects.toMatchObject({
      statusCode: 404,
    });
    await translations.deleteOne(PROJECT, saved!.id, PERSON.actor);
    expect(await translations.approved(PROJECT, 'de')).toEqual([]);
  });
});

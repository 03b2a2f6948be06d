import { PERSON } from '../testing/unit-context.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryPhrasesRepository } from '../testing/in-memory-phrases-repository.ts';
import { InMemoryTables } from '../testing/in-memory-tables.ts';
import { InMemoryTranslationsRepository } from '../testing/in-memory-translations-repository.ts';
import { PhrasesService } from './phrases-service.ts';

const PROJECT = 1;
const OTHER_PROJECT = 2;

describe('PhrasesService', () => {
  let tables: InMemoryTables;
  let repository: InMemoryPhrasesRepository;
  let changed: number[];
  let phrases: PhrasesService;

  beforeEach(() => {
    tables = new InMemoryTables();
    repository = new InMemoryPhrasesRepository(tables);
    changed = [];
    phrases = new PhrasesService(repository, (projectId) => changed.push(projectId));
  });

  const translate = (phraseId: number, lang: string) =>
    new InMemoryTranslationsRepository(tables).save(
      PROJECT,
      lang,
      new Map([[phraseId, 'translated']]),
      PERSON,
    );

  const idOf = (key: string, projectId = PROJECT) =>
    tables.phrases.find((row) => row.key === key && row.project_id === projectId)!.id;

  describe('register', () => {
    it('creates new phrases as pending and counts only those this call created', async () => {
      await phrases.register(PROJECT, [{ key: 'Hello' }], undefined);
      const result = await phrases.register(
        PROJECT,
        [{ key: 'Hello' }, { key: 'Bye' }, { key: 'Bye' }, { key: 'Bye', context: 'button' }],
        undefined,
      );
      expect(result).toEqual({ ok: true, registered: 2, keyMap: {} });
      expect(await phrases.counts(PROJECT)).toEqual({ pending: 3, approved: 0, trash: 0 });
    });

    it('turns numbers into slots, maps every rewritten key and creates none with nothing to translate', async () => {
      const result = await phrases.register(PROJECT, [{ key: '3 new messages' }, { key: '42 %' }], undefined);
      expect(result).toEqual({
        ok: true,
        registered: 1,
        keyMap: { '3 new messages': '{{number:0}} new messages', '42 %': '{{number:0}} %' },
      });
      expect(tables.phrases.map((row) => row.key)).toEqual(['{{number:0}} new messages']);
      const phrase = await phrases.get(PROJECT, idOf('{{number:0}} new messages'));
      expect(phrase.varSlots).toEqual([{ type: 'number', index: 0 }]);
    });

    it('creates only what fits under maxPending, and refuses a call none of whose phrases fit with 429', async () => {
      const partly = await phrases.register(PROJECT, [{ key: 'a' }, { key: 'b' }, { key: 'c' }], undefined, {
        maxPending: 2,
      });
      expect(partly.registered).toBe(2);
      const refused = phrases.register(PROJECT, [{ key: 'd' }], undefined, { maxPending: 2 });
      await expect(refused).rejects.toMatchObject({
        statusCode: 429,
        code: 'rate_limited',
        headers: { 'retry-after': '600' },
      });
      expect(await phrases.counts(PROJECT)).toMatchObject({ pending: 2 });
    });

    it('still accepts known phrases when the project is full of pending ones', async () => {
      await phrases.register(PROJECT, [{ key: 'a' }], undefined, { maxPending: 1 });
      await expect(
        phrases.register(PROJECT, [{ key: 'a' }], undefined, { maxPending: 1 }),
      ).resolves.toMatchObject({
        registered: 0,
      });
    });

    it('records a new page only while the project has fewer than maxUrls pages', async () => {
      await phrases.register(PROJECT, [{ key: 'a' }], 'https://site/1', { maxUrls: 1 });
      const result = await phrases.register(PROJECT, [{ key: 'b' }], 'https://site/2', { maxUrls: 1 });
      expect(result.registered).toBe(1);
      expect(repository.pagesOf(PROJECT)).toEqual(new Set(['https://site/1']));
      await phrases.register(PROJECT, [{ key: 'b' }], 'https://site/1', { maxUrls: 1 });
      expect(tables.phraseUrls.filter((row) => row.phrase_id === idOf('b')).map((row) => row.url)).toEqual([
        'https://site/1',
      ]);
    });
  });

  describe('edit', () => {
    beforeEach(async () => {
      await phrases.register(PROJECT, [{ key: 'Hello {{text:0}}' }, { key: 'Goodbye' }], undefined);
    });

    it('changes the key, reads the slots from it and announces the change', async () => {
      const edited = await phrases.edit(PROJECT, idOf('Goodbye'), { key: 'Bye {{text:0}}' });
      expect(edited).toMatchObject({ key: 'Bye {{text:0}}', varSlots: [{ type: 'text', index: 0 }] });
      expect(await phrases.get(PROJECT, edited.id)).toMatchObject({ key: 'Bye {{text:0}}' });
      expect(changed).toEqual([PROJECT]);
    });

    it('refuses slots that are not exactly the tokens of the key (422, nothing written)', async () => {
      const id = idOf('Hello {{text:0}}');
      await expect(phrases.edit(PROJECT, id, { varSlots: [] })).rejects.toMatchObject({
        statusCode: 422,
        code: 'validation_failed',
        fields: { varSlots: expect.stringContaining('{{text:0}}') },
      });
      expect(await phrases.get(PROJECT, id)).toMatchObject({ varSlots: [{ type: 'text', index: 0 }] });
      expect(changed).toEqual([]);
    });

    it('refuses a key another phrase of the same context has (409 on key)', async () => {
      await expect(phrases.edit(PROJECT, idOf('Goodbye'), { key: 'Hello {{text:0}}' })).rejects.toMatchObject(
        {
          statusCode: 409,
          code: 'conflict',
          fields: { key: 'is already taken' },
        },
      );
    });

    it('does not find a phrase of another project', async () => {
      await expect(phrases.edit(OTHER_PROJECT, idOf('Goodbye'), { key: 'x' })).rejects.toMatchObject({
        statusCode: 404,
        code: 'not_found',
      });
    });
  });

  describe('status and deletion', () => {
    beforeEach(async () => {
      await phrases.register(PROJECT, [{ key: 'one' }, { key: 'two' }, { key: 'three' }], undefined);
      await phrases.register(OTHER_PROJECT, [{ key: 'theirs' }], undefined);
    });

    it('changes the status of its own phrases only', async () => {
      const updated = await phrases.setStatus(
        PROJECT,
        [idOf('one'), idOf('theirs', OTHER_PROJECT)],
        'approved',
      );
      expect(updated).toBe(1);
      expect(await phrases.counts(PROJECT)).toEqual({ pending: 2, approved: 1, trash: 0 });
      expect(await phrases.counts(OTHER_PROJECT)).toEqual({ pending: 1, approved: 0, trash: 0 });
      expect(changed).toEqual([PROJECT]);
    });

    it('lists approved phrases that lack a translation in the language', async () => {
      await phrases.setStatus(PROJECT, [idOf('one'), idOf('two')], 'approved');
      await translate(idOf('one'), 'de');
      expect(await phrases.untranslatedIds(PROJECT, 'de')).toEqual([idOf('two')]);
      expect(await phrases.untranslatedIds(PROJECT, 'fr')).toEqual([idOf('one'), idOf('two')]);
    });

    it('deletes one phrase with its translations, and answers 404 for another project’s phrase', async () => {
      const id = idOf('one');
      await translate(id, 'de');
      await phrases.deleteOne(PROJECT, id);
      expect(tables.translations).toEqual([]);
      await expect(phrases.get(PROJECT, id)).rejects.toMatchObject({ statusCode: 404 });
      await expect(phrases.deleteOne(PROJECT, idOf('theirs', OTHER_PROJECT))).rejects.toMatchObject({
        statusCode: 404,
        code: 'not_found',
      });
      expect(await phrases.counts(OTHER_PROJECT)).toMatchObject({ pending: 1 });
    });

    it('clears the pending phrases and keeps the reviewed ones', async () => {
      await phrases.setStatus(PROJECT, [idOf('one')], 'approved');
      await phrases.setStatus(PROJECT, [idOf('two')], 'trash');
      expect(await phrases.clearPending(PROJECT)).toBe(1);
      expect(await phrases.counts(PROJECT)).toEqual({ pending: 0, approved: 1, trash: 1 });
    });

    it('tells which ids are phrases of the project', async () => {
      expect(await phrases.existing(PROJECT, [idOf('two'), idOf('theirs', OTHER_PROJECT), 999])).toEqual([
        idOf('two'),
      ]);
    });
  });
});

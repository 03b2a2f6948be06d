import { PERSON } from '../src/testing/unit-context.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uniqueViolationColumns, type Database } from '@app/server-kit';
import { createTestDatabase, testDialect, type TestDatabase } from '@app/server-kit/testing';
import { PromptsRepository } from '../src/ai/prompts-repository.ts';
import type { PromptsStore } from '../src/ai/prompts-service.ts';
import type { TranslatorDB } from '../src/db/schema.ts';
import { openStore } from '../src/db/store.ts';
import { PhrasesRepository } from '../src/phrases/phrases-repository.ts';
import { phraseHash, type PhrasesStore } from '../src/phrases/phrases-service.ts';
import { ProjectsRepository } from '../src/projects/projects-repository.ts';
import type { ProjectsStore } from '../src/projects/projects-service.ts';
import { InMemoryPhrasesRepository } from '../src/testing/in-memory-phrases-repository.ts';
import { InMemoryProjectsRepository } from '../src/testing/in-memory-projects-repository.ts';
import { InMemoryPromptsRepository } from '../src/testing/in-memory-prompts-repository.ts';
import { InMemoryTables } from '../src/testing/in-memory-tables.ts';
import { InMemoryTranslationsRepository } from '../src/testing/in-memory-translations-repository.ts';
import { TranslationsRepository } from '../src/translations/translations-repository.ts';
import type { TranslationsStore } from '../src/translations/translations-service.ts';
import { testConfig } from './helpers.ts';

// The specs beside the services run on in-memory repositories: these cases hold them to what the SQL
// repositories do, on the dialect of this run.

interface Repositories {
  projects: ProjectsStore;
  phrases: PhrasesStore;
  prompts: PromptsStore;
  translations: TranslationsStore;
}

let database: TestDatabase;
let store: Database<TranslatorDB>;
beforeAll(async () => {
  database = await createTestDatabase();
  store = await openStore(testConfig(database));
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const implementations: [string, () => Repositories][] = [
  [
    `SQL on ${testDialect()}`,
    () => ({
      projects: new ProjectsRepository(store.db),
      phrases: new PhrasesRepository(store.db),
      prompts: new PromptsRepository(store.db),
      translations: new TranslationsRepository(store.db),
    }),
  ],
  [
    'in memory',
    () => {
      const tables = new InMemoryTables();
      return {
        projects: new InMemoryProjectsRepository(tables),
        phrases: new InMemoryPhrasesRepository(tables),
        prompts: new InMemoryPromptsRepository(tables),
        translations: new InMemoryTranslationsRepository(tables),
      };
    },
  ],
];

const NOW = '2026-01-01T00:00:00.000Z';
const seen = (...keys: string[]) =>
  new Map(keys.map((key) => [phraseHash(key, ''), { key, context: '', varSlots: [] }]));

describe.each(implementations)('translator repositories: %s', (_name, make) => {
  let repos: Repositories;
  let projectId: number;
  let otherId: number;

  const newProject = async () =>
    (
      await repos.projects.create(
        {
          name: 'Project',
          api_key_hash: randomUUID(),
          api_key_sealed: 'sealed',
          page_key: `tpk_${randomUUID()}`,
          settings: '{}',
          provider_key_sealed: null,
          full_key_origin: null,
          full_key_origin_at: null,
          created_at: NOW,
          updated_at: NOW,
        },
        {
          id: randomUUID(),
          name: 'Default',
          text: 'Translate.',
          is_default: 1,
          created_at: NOW,
          updated_at: NOW,
        },
      )
    ).id;
  const idsOf = async (projectId: number, ...keys: string[]) => {
    const rows = await repos.translations.phrasesByHash(
      projectId,
      keys.map((key) => phraseHash(key, '')),
    );
    return keys.map((key) => rows.find((row) => row.key === key)!.id);
  };

  beforeEach(async () => {
    repos = make();
    projectId = await newProject();
    otherId = await newProject();
  });

  describe('phrases', () => {
    it('creates unknown phrases as pending, once, counting only what the call created', async () => {
      expect(await repos.phrases.register(projectId, seen('a', 'b'), undefined, {})).toMatchObject({
        created: 2,
      });
      expect(await repos.phrases.register(projectId, seen('a', 'c'), undefined, {})).toMatchObject({
        created: 1,
      });
      expect(await repos.phrases.counts(projectId)).toEqual({ pending: 3, approved: 0, trash: 0 });
      expect(await repos.phrases.counts(otherId)).toEqual({ pending: 0, approved: 0, trash: 0 });
    });

    it('creates what fits under maxPending, and records no page when nothing fits', async () => {
      expect(
        await repos.phrases.register(projectId, seen('a', 'b', 'c'), undefined, { maxPending: 2 }),
      ).toEqual({
        created: 2,
        refused: 1,
        pending: 0,
        carried: 0,
      });
      expect(
        await repos.phrases.register(projectId, seen('a', 'd'), 'https://site/1', { maxPending: 2 }),
      ).toEqual({
        created: 0,
        refused: 1,
        pending: 2,
        carried: 0,
      });
      expect(await repos.translations.urlsOf(await idsOf(projectId, 'a'))).toEqual([]);
    });

    it('records a page the project has not seen only while it has fewer than maxUrls', async () => {
      await repos.phrases.register(projectId, seen('a'), 'https://site/1', { maxUrls: 1 });
      await repos.phrases.register(projectId, seen('a', 'b'), 'https://site/2', { maxUrls: 1 });
      await repos.phrases.register(projectId, seen('b'), 'https://site/1', { maxUrls: 1 });
      const [a, b] = await idsOf(projectId, 'a', 'b');
      expect(await repos.translations.urlsOf([a!, b!])).toEqual([
        { phrase_id: a, url: 'https://site/1' },
        { phrase_id: b, url: 'https://site/1' },
      ]);
    });

    it('refuses a key hash the project already has, with a unique violation', async () => {
      await repos.phrases.register(projectId, seen('a', 'b'), undefined, {});
      const [, b] = await idsOf(projectId, 'a', 'b');
      const error = await repos.phrases
        .update(projectId, b!, { key: 'a', key_hash: phraseHash('a', '') })
        .catch((e) => e);
      expect(uniqueViolationColumns(error)).toBeDefined();
    });

    it('sets the status of its own phrases only and lists approved ones without a translation', async () => {
      await repos.phrases.register(projectId, seen('a', 'b', 'c'), undefined, {});
      await repos.phrases.register(otherId, seen('x'), undefined, {});
      const [a, b] = await idsOf(projectId, 'a', 'b');
      const [x] = await idsOf(otherId, 'x');
      expect(await repos.phrases.setStatus(projectId, [a!, b!, x!], 'approved')).toBe(2);
      await repos.translations.save(projectId, 'de', new Map([[a!, 'A']]), PERSON);
      expect(await repos.phrases.untranslatedIds(projectId, 'de')).toEqual([b]);
      expect(await repos.phrases.existing(projectId, [a!, x!, 999_999])).toEqual([a]);
    });

    it('deletes phrases with their translations and pages; clears only pending ones', async () => {
      await repos.phrases.register(projectId, seen('a', 'b', 'c'), 'https://site/1', {});
      await repos.phrases.register(otherId, seen('x'), undefined, {});
      const [a, b, c] = await idsOf(projectId, 'a', 'b', 'c');
      const [x] = await idsOf(otherId, 'x');
      await repos.translations.save(projectId, 'de', new Map([[a!, 'A']]), PERSON);
      expect(await repos.phrases.delete(projectId, [a!, x!])).toBe(1);
      expect(await repos.translations.countExisting('de', [a!])).toBe(0);
      expect(await repos.translations.urlsOf([a!])).toEqual([]);
      await repos.phrases.setStatus(projectId, [b!], 'approved');
      expect(await repos.phrases.clearPending(projectId)).toBe(1);
      expect(await repos.phrases.existing(projectId, [b!, c!])).toEqual([b]);
      expect(await repos.phrases.existing(otherId, [x!])).toEqual([x]);
    });
  });

  describe('prompts', () => {
    it('keeps one default: the project’s first, replaced by a new default, listed first', async () => {
      expect((await repos.prompts.theDefault(projectId)).name).toBe('Default');
      await repos.prompts.insert({
        ...prompt('Casual', '2026-01-02T00:00:00.000Z'),
        project_id: projectId,
        is_default: 1,
      });
      await repos.prompts.insert({
        ...prompt('Formal', '2026-01-03T00:00:00.000Z'),
        project_id: projectId,
        is_default: 0,
      });
      const listed = await repos.prompts.list(projectId);
      expect(listed.map((row) => [row.name, row.is_default])).toEqual([
        ['Casual', 1],
        ['Default', 0],
        ['Formal', 0],
      ]);
      await repos.prompts.update(projectId, listed[2]!.id, { is_default: 1 });
      expect((await repos.prompts.theDefault(projectId)).name).toBe('Formal');
      expect((await repos.prompts.list(otherId)).map((row) => row.name)).toEqual(['Default']);
    });
  });

  describe('translations', () => {
    let a: number;
    let b: number;
    beforeEach(async () => {
      await repos.phrases.register(projectId, seen('Apple', 'Banana'), 'https://shop/fruit', {});
      [a, b] = (await idsOf(projectId, 'Apple', 'Banana')) as [number, number];
      await repos.phrases.setStatus(projectId, [a], 'approved');
    });

    it('creates or replaces one translation per phrase and language, delivering approved phrases only', async () => {
      await repos.translations.save(
        projectId,
        'de',
        new Map([
          [a, 'Apfel'],
          [b, 'Banane'],
        ]),
        PERSON,
      );
      await repos.translations.save(projectId, 'de', new Map([[a, 'Der Apfel']]), PERSON);
      expect(await repos.translations.countExisting('de', [a, b])).toBe(2);
      expect(await repos.translations.approved(projectId, 'de')).toEqual([
        { key: 'Apple', context: '', value: 'Der Apfel' },
      ]);
    });

    it('undoes the writes of a transaction whose work fails', async () => {
      const failed = repos.translations.transaction(async (trx) => {
        await repos.translations.save(projectId, 'de', new Map([[a, 'Apfel']]), PERSON, trx);
        throw new Error('changed my mind');
      });
      await expect(failed).rejects.toThrow('changed my mind');
      expect(await repos.translations.countExisting('de', [a])).toBe(0);
    });

    it('pages phrases newest first with their translation, filtered and searched', async () => {
      await repos.translations.save(projectId, 'de', new Map([[a, 'Apfel']]), PERSON);
      const page = (filter: object) =>
        repos.translations.page(projectId, {
          lang: 'de',
          searchField: 'key',
          limit: 10,
          offset: 0,
          ...filter,
        });
      const all = await page({});
      expect(all.total).toBe(2);
      expect(all.rows.map((row) => [row.key, row.value])).toEqual([
        ['Banana', null],
        ['Apple', 'Apfel'],
      ]);
      expect((await page({ translated: 'no' })).rows.map((row) => row.key)).toEqual(['Banana']);
      expect((await page({ status: 'approved' })).rows.map((row) => row.key)).toEqual(['Apple']);
      expect((await page({ search: 'APF', searchField: 'value' })).rows.map((row) => row.key)).toEqual([
        'Apple',
      ]);
      expect((await page({ search: 'fruit', searchField: 'url' })).total).toBe(2);
      expect((await page({ search: 'nan', searchField: 'all' })).rows.map((row) => row.key)).toEqual([
        'Banana',
      ]);
      expect(await page({ limit: 1, offset: 1 })).toMatchObject({ total: 2, rows: [{ key: 'Apple' }] });
    });

    it('deletes a translation of its own project only', async () => {
      await repos.translations.save(projectId, 'de', new Map([[a, 'Apfel']]), PERSON);
      const [row] = (
        await repos.translations.page(projectId, { lang: 'de', searchField: 'key', limit: 1, offset: 1 })
      ).rows;
      expect(await repos.translations.deleteOne(otherId, row!.translation_id!, PERSON)).toBe(false);
      expect(await repos.translations.deleteOne(projectId, row!.translation_id!, PERSON)).toBe(true);
      expect(await repos.translations.countExisting('de', [a])).toBe(0);
    });
  });

  describe('projects', () => {
    it('finds a project by page key or full-key hash, updates it and deletes its data only', async () => {
      const project = (await repos.projects.byId(projectId))!;
      expect(await repos.projects.byKey(true, project.page_key)).toMatchObject({ id: projectId });
      expect(await repos.projects.byKey(false, project.api_key_hash)).toMatchObject({ id: projectId });
      expect(await repos.projects.byKey(true, project.api_key_hash)).toBeUndefined();
      const renamed = await repos.projects.updateFrom(projectId, (current) => ({ name: `${current.name}!` }));
      expect(renamed).toMatchObject({ id: projectId, name: 'Project!' });
      expect(await repos.projects.update(999_999, { name: 'x' })).toBeUndefined();

      await repos.phrases.register(projectId, seen('a', 'b'), undefined, {});
      await repos.phrases.register(otherId, seen('x'), undefined, {});
      const [a] = await idsOf(projectId, 'a');
      await repos.translations.save(projectId, 'de', new Map([[a!, 'A']]), PERSON);
      expect(await repos.projects.deleteData(projectId)).toEqual({
        deletedPhrases: 2,
        deletedTranslations: 1,
      });
      expect(await repos.phrases.counts(otherId)).toMatchObject({ pending: 1 });
    });
  });
});

const prompt = (name: string, createdAt: string) => ({
  id: randomUUID(),
  name,
  text: `${name}.`,
  created_at: createdAt,
  updated_at: createdAt,
});

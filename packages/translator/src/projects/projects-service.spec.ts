import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryPhrasesRepository } from '../testing/in-memory-phrases-repository.ts';
import { InMemoryProjectsRepository } from '../testing/in-memory-projects-repository.ts';
import { InMemoryTables } from '../testing/in-memory-tables.ts';
import { InMemoryTranslationsRepository } from '../testing/in-memory-translations-repository.ts';
import { RecordedChanges, unitContext, PERSON } from '../testing/unit-context.ts';
import { ProjectsService } from './projects-service.ts';

describe('ProjectsService', () => {
  let tables: InMemoryTables;
  let changes: RecordedChanges;
  let projects: ProjectsService;

  const build = (env: Record<string, string> = {}) => {
    tables = new InMemoryTables();
    changes = new RecordedChanges();
    projects = new ProjectsService(unitContext(env), new InMemoryProjectsRepository(tables), changes);
  };
  beforeEach(() => build());

  it('creates a project with its keys, a default prompt, and no key in clear in storage', async () => {
    const { project, apiKey } = await projects.create('Shop');
    expect(project).toMatchObject({ name: 'Shop', api_key: apiKey, full_key_used_from: null });
    expect(project.page_key).toMatch(/^tpk_/);
    expect(tables.prompts).toMatchObject([{ project_id: project.id, is_default: 1 }]);
    expect(JSON.stringify(tables.projects)).not.toContain(apiKey);
    expect(changes.announced).toEqual([['keys', project.id]]);
  });

  it('authenticates the full key and the page key, and nothing else', async () => {
    const { project, apiKey } = await projects.create('Shop');
    expect(await projects.authenticate(apiKey)).toMatchObject({ id: project.id });
    expect(await projects.authenticate(project.page_key)).toMatchObject({ id: project.id });
    // One character changed (never to itself: a key ending in "x" once made this pass).
    const altered = `${apiKey.slice(0, -1)}${apiKey.endsWith('x') ? 'y' : 'x'}`;
    expect(await projects.authenticate(altered)).toBeUndefined();
    expect(await projects.authenticate('short')).toBeUndefined();
  });

  it('stops the old full key at once when a new one is made, and forgets the warning about its use', async () => {
    const { project, apiKey } = await projects.create('Shop');
    await projects.authenticate(apiKey);
    await projects.recordFullKeyUse(project.id, 'https://shop.example');
    expect((await projects.get(project.id)).full_key_used_from).toMatchObject({
      origin: 'https://shop.example',
    });
    const renewed = await projects.regenerateKey(project.id);
    expect(renewed.api_key).not.toBe(apiKey);
    expect(renewed.full_key_used_from).toBeNull();
    expect(projects.cachedKey(apiKey)).toBeUndefined();
    expect(await projects.authenticate(apiKey)).toBeUndefined();
    expect(await projects.authenticate(renewed.api_key)).toMatchObject({ id: project.id });
  });

  it('stops the old page key when a new one is made', async () => {
    const { project } = await projects.create('Shop');
    await projects.authenticate(project.page_key);
    const renewed = await projects.regeneratePageKey(project.id);
    expect(await projects.authenticate(project.page_key)).toBeUndefined();
    expect(await projects.authenticate(renewed.page_key)).toMatchObject({ id: project.id });
  });

  it('writes a repeated full-key use from one origin once, and a use from another origin again', async () => {
    const { project } = await projects.create('Shop');
    expect(projects.recordFullKeyUse(project.id, 'https://a.example')).toBeDefined();
    expect(projects.recordFullKeyUse(project.id, 'https://a.example')).toBeUndefined();
    expect(projects.recordFullKeyUse(project.id, 'https://b.example')).toBeDefined();
  });

  it('seals the provider key: shown as set, never in clear, readable by the worker, removable', async () => {
    const { project } = await projects.create('Shop');
    const updated = await projects.updateSettings(project.id, { translationProviderApiKey: ' sk-secret ' });
    expect(updated.settings).toMatchObject({
      translationProviderApiKey: '',
      translationProviderApiKeySet: true,
    });
    expect(JSON.stringify(tables.projects)).not.toContain('sk-secret');
    expect(await projects.providerKey(project.id)).toBe('sk-secret');
    await projects.updateSettings(project.id, { translationProviderApiKey: null });
    expect(await projects.providerKey(project.id)).toBeUndefined();
  });

  it('answers 404 for a project that does not exist', async () => {
    await expect(projects.get(42)).rejects.toMatchObject({ statusCode: 404, code: 'not_found' });
    await expect(projects.rename(42, 'x')).rejects.toMatchObject({ statusCode: 404 });
    await expect(projects.updateSettings(42, {})).rejects.toMatchObject({ statusCode: 404 });
    expect(await projects.find(42)).toBeUndefined();
  });

  it('creates the default project once; outside production it allows pages on this machine', async () => {
    const first = await projects.ensureDefault();
    expect(first.created).toBe(true);
    expect(first.project.settings.allowedOrigins.length).toBeGreaterThan(0);
    expect(await projects.ensureDefault()).toMatchObject({
      created: false,
      project: { id: first.project.id },
    });
    build({ NODE_ENV: 'production' });
    expect((await projects.ensureDefault()).project.settings.allowedOrigins).toEqual([]);
  });

  it('lets a CORS preflight through for an origin some project allows', async () => {
    const { project } = await projects.create('Shop');
    await projects.updateSettings(project.id, { allowedOrigins: ['https://shop.example'] });
    expect(await projects.originAllowedAnywhere('https://shop.example')).toBe(true);
    expect(await projects.originAllowedAnywhere('https://evil.example')).toBe(false);
    expect(await projects.originAllowedAnywhere(undefined)).toBe(false);
  });

  it('resets the data of one project and announces it', async () => {
    const { project } = await projects.create('Shop');
    const other = (await projects.create('Blog')).project;
    const phrases = new InMemoryPhrasesRepository(tables);
    const seen = (key: string) => ({ key, context: '', varSlots: [] });
    await phrases.register(
      project.id,
      new Map([
        ['h1', seen('a')],
        ['h2', seen('b')],
      ]),
      undefined,
      {},
    );
    await phrases.register(other.id, new Map([['h3', seen('c')]]), undefined, {});
    const [first] = phrases.ofProject(project.id);
    await new InMemoryTranslationsRepository(tables).save(
      project.id,
      'de',
      new Map([[first!.id, 'A']]),
      PERSON,
    );
    expect(await projects.resetData(project.id)).toEqual({ deletedPhrases: 2, deletedTranslations: 1 });
    expect(phrases.ofProject(project.id)).toEqual([]);
    expect(phrases.ofProject(other.id)).toHaveLength(1);
    expect(changes.announced.at(-1)).toEqual(['data', project.id]);
  });
});

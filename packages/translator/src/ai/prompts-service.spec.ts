import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryPromptsRepository } from '../testing/in-memory-prompts-repository.ts';
import { PromptsService } from './prompts-service.ts';

const PROJECT = 1;
const OTHER_PROJECT = 2;

describe('PromptsService', () => {
  let prompts: PromptsService;
  let defaultId: string;

  beforeEach(async () => {
    prompts = new PromptsService(new InMemoryPromptsRepository());
    defaultId = (await prompts.create(PROJECT, { name: 'Default', text: 'Translate.', isDefault: true })).id;
  });

  const defaults = async (projectId = PROJECT) =>
    (await prompts.list(projectId)).filter((prompt) => prompt.isDefault).map((prompt) => prompt.name);

  it('creates a prompt with a trimmed name, listed after the default', async () => {
    const created = await prompts.create(PROJECT, { name: '  Formal  ', text: 'Use formal speech.' });
    expect(created).toMatchObject({ name: 'Formal', text: 'Use formal speech.', isDefault: false });
    expect((await prompts.list(PROJECT)).map((prompt) => prompt.name)).toEqual(['Default', 'Formal']);
  });

  it('keeps exactly one default: a new default prompt takes over', async () => {
    await prompts.create(PROJECT, { name: 'Casual', text: 'Be casual.', isDefault: true });
    expect(await defaults()).toEqual(['Casual']);
    expect((await prompts.list(PROJECT))[0]!.name).toBe('Casual');
  });

  it('makes another prompt the default by update', async () => {
    const other = await prompts.create(PROJECT, { name: 'Other', text: 'x' });
    await prompts.update(PROJECT, other.id, { isDefault: true });
    expect(await defaults()).toEqual(['Other']);
  });

  it('refuses to unset the default (409 default_prompt) and to delete it', async () => {
    await expect(prompts.update(PROJECT, defaultId, { isDefault: false })).rejects.toMatchObject({
      statusCode: 409,
      code: 'default_prompt',
      fields: { isDefault: 'one prompt must be the default' },
    });
    await expect(prompts.delete(PROJECT, defaultId)).rejects.toMatchObject({
      statusCode: 409,
      code: 'default_prompt',
    });
    expect(await defaults()).toEqual(['Default']);
  });

  it('deletes a prompt that is not the default', async () => {
    const other = await prompts.create(PROJECT, { name: 'Other', text: 'x' });
    await prompts.delete(PROJECT, other.id);
    await expect(prompts.get(PROJECT, other.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
  });

  it('does not show or change a prompt of another project', async () => {
    await expect(prompts.get(OTHER_PROJECT, defaultId)).rejects.toMatchObject({ statusCode: 404 });
    await expect(prompts.update(OTHER_PROJECT, defaultId, { name: 'Mine' })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await prompts.get(PROJECT, defaultId)).name).toBe('Default');
  });

  it('gives a job its own prompt, else the default when none or an unknown one is named', async () => {
    const formal = await prompts.create(PROJECT, { name: 'Formal', text: 'Formal.' });
    expect((await prompts.forJob(PROJECT, formal.id)).name).toBe('Formal');
    expect((await prompts.forJob(PROJECT, null)).name).toBe('Default');
    expect((await prompts.forJob(PROJECT, 'gone')).name).toBe('Default');
  });
});

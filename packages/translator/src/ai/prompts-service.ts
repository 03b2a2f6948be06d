import { randomUUID } from 'node:crypto';
import { notFound } from '@app/server-kit';
import { nowIso } from '../common/time.ts';
import type { PromptRow, PromptsRepository } from './prompts-repository.ts';
import { fail } from '../errors/catalogue.ts';

export interface Prompt {
  id: string;
  name: string;
  text: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const toPrompt = (row: PromptRow): Prompt => ({
  id: row.id,
  name: row.name,
  text: row.text,
  isDefault: Boolean(row.is_default),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type PromptsStore = Pick<
  PromptsRepository,
  'list' | 'get' | 'theDefault' | 'insert' | 'update' | 'delete'
>;

/** The system prompts of a project's AI jobs. Every project has exactly one default prompt. */
export class PromptsService {
  constructor(private readonly prompts: PromptsStore) {}

  async list(projectId: number): Promise<Prompt[]> {
    return (await this.prompts.list(projectId)).map(toPrompt);
  }

  async get(projectId: number, id: string): Promise<Prompt> {
    const row = await this.prompts.get(projectId, id);
    if (!row) throw notFound('Prompt not found.');
    return toPrompt(row);
  }

  /** The prompt of a job: the given one, else the project's default. */
  async forJob(projectId: number, id: string | null): Promise<Prompt> {
    if (id) {
      const row = await this.prompts.get(projectId, id);
      if (row) return toPrompt(row);
    }
    return toPrompt(await this.prompts.theDefault(projectId));
  }

  async create(
    projectId: number,
    input: { name: string; text: string; isDefault?: boolean | undefined },
  ): Promise<Prompt> {
    const now = nowIso();
    const id = randomUUID();
    await this.prompts.insert({
      id,
      project_id: projectId,
      name: input.name.trim(),
      text: input.text,
      is_default: input.isDefault ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    return this.get(projectId, id);
  }

  async update(
    projectId: number,
    id: string,
    input: { name?: string | undefined; text?: string | undefined; isDefault?: boolean | undefined },
  ): Promise<Prompt> {
    const current = await this.get(projectId, id);
    if (input.isDefault === false && current.isDefault) {
      throw fail('default_prompt', 'Make another prompt the default instead.', {
        isDefault: 'one prompt must be the default',
      });
    }
    await this.prompts.update(projectId, id, {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...(input.isDefault ? { is_default: 1 } : {}),
      updated_at: nowIso(),
    });
    return this.get(projectId, id);
  }

  async delete(projectId: number, id: string): Promise<void> {
    const current = await this.get(projectId, id);
    if (current.isDefault) {
      throw fail(
        'default_prompt',
        'The default prompt cannot be deleted; make another prompt the default first.',
      );
    }
    await this.prompts.delete(projectId, id);
  }
}

import type { Insertable, Updateable } from 'kysely';
import type { PromptsTable } from '../db/schema.ts';
import type { PromptRow } from '../ai/prompts-repository.ts';
import type { PromptsStore } from '../ai/prompts-service.ts';
import { InMemoryTables, removeWhere } from './in-memory-tables.ts';

/** The projects' prompts in memory: making one the default unsets the others, as PromptsRepository does. */
export class InMemoryPromptsRepository implements PromptsStore {
  constructor(readonly tables = new InMemoryTables()) {}

  async list(projectId: number): Promise<PromptRow[]> {
    return this.ofProject(projectId).sort(
      (a, b) => b.is_default - a.is_default || a.created_at.localeCompare(b.created_at),
    );
  }

  async get(projectId: number, id: string): Promise<PromptRow | undefined> {
    return this.ofProject(projectId).find((row) => row.id === id);
  }

  async theDefault(projectId: number): Promise<PromptRow> {
    const [first] = await this.list(projectId);
    if (!first) throw new Error(`Project ${projectId} has no prompt.`);
    return first;
  }

  async insert(prompt: Insertable<PromptsTable>): Promise<void> {
    if (prompt.is_default) this.unsetDefault(prompt.project_id);
    this.tables.prompts.push({ ...prompt });
  }

  async update(projectId: number, id: string, values: Updateable<PromptsTable>): Promise<void> {
    if (values.is_default) this.unsetDefault(projectId);
    const row = await this.get(projectId, id);
    if (row) Object.assign(row, values);
  }

  async delete(projectId: number, id: string): Promise<void> {
    removeWhere(this.tables.prompts, (row) => row.project_id === projectId && row.id === id);
  }

  private ofProject(projectId: number): PromptRow[] {
    return this.tables.prompts.filter((row) => row.project_id === projectId);
  }

  private unsetDefault(projectId: number) {
    for (const row of this.ofProject(projectId)) row.is_default = 0;
  }
}

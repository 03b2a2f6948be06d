import type { Insertable, Updateable } from 'kysely';
import type { ProjectsTable, PromptsTable } from '../db/schema.ts';
import type { ProjectRow } from '../projects/projects-repository.ts';
import type { ProjectsStore } from '../projects/projects-service.ts';
import { InMemoryTables } from './in-memory-tables.ts';

/** Projects in memory; like ProjectsRepository it creates a project with its default prompt. */
export class InMemoryProjectsRepository implements ProjectsStore {
  constructor(readonly tables = new InMemoryTables()) {}

  async create(
    project: Insertable<ProjectsTable>,
    prompt: Omit<Insertable<PromptsTable>, 'project_id'>,
  ): Promise<ProjectRow> {
    const row: ProjectRow = {
      ...project,
      id: this.tables.nextId('projects'),
      provider_key_sealed: project.provider_key_sealed ?? null,
      full_key_origin: project.full_key_origin ?? null,
      full_key_origin_at: project.full_key_origin_at ?? null,
    };
    this.tables.projects.push(row);
    this.tables.prompts.push({ ...prompt, project_id: row.id });
    return { ...row };
  }

  async first(): Promise<ProjectRow | undefined> {
    const row = this.tables.projects[0];
    return row && { ...row };
  }

  async list(): Promise<{ id: number; name: string; created_at: string }[]> {
    return this.tables.projects.map(({ id, name, created_at }) => ({ id, name, created_at }));
  }

  async byId(id: number): Promise<ProjectRow | undefined> {
    const row = this.find(id);
    return row && { ...row };
  }

  async byKey(page: boolean, value: string): Promise<{ id: number; settings: string } | undefined> {
    const row = this.tables.projects.find(
      (candidate) => (page ? candidate.page_key : candidate.api_key_hash) === value,
    );
    return row && { id: row.id, settings: row.settings };
  }

  async allSettings(): Promise<{ id: number; settings: string }[]> {
    return this.tables.projects.map((row) => ({ id: row.id, settings: row.settings }));
  }

  async update(id: number, values: Updateable<ProjectsTable>): Promise<ProjectRow | undefined> {
    const row = this.find(id);
    if (!row) return undefined;
    Object.assign(row, values);
    return { ...row };
  }

  async updateFrom(
    id: number,
    change: (current: ProjectRow) => Updateable<ProjectsTable>,
  ): Promise<ProjectRow | undefined> {
    const row = this.find(id);
    return row && this.update(id, change({ ...row }));
  }

  async deleteData(id: number): Promise<{ deletedPhrases: number; deletedTranslations: number }> {
    const ids = this.tables.phrases.filter((row) => row.project_id === id).map((row) => row.id);
    const { phrases, translations } = this.tables.deletePhrases(ids);
    return { deletedPhrases: phrases, deletedTranslations: translations };
  }

  private find(id: number): ProjectRow | undefined {
    return this.tables.projects.find((row) => row.id === id);
  }
}

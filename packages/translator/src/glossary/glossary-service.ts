import { badRequest, notFound, uniqueViolationColumns } from '@app/server-kit';
import type { Selectable } from 'kysely';
import type { GlossaryTermsTable } from '../db/schema.ts';
import { fail } from '../errors/catalogue.ts';
import { nowIso } from '../common/time.ts';
import type { StoredSettings } from '../projects/settings.ts';
import type { GlossaryRule } from './glossary-check.ts';
import type { GlossaryRepository } from './glossary-repository.ts';

export interface GlossaryTerm {
  id: number;
  /** The language the term's translation is for; null for every language (do-not-translate names). */
  lang: string | null;
  term: string;
  translation: string | null;
  doNotTranslate: boolean;
  caseSensitive: boolean;
  note: string;
  createdAt: string;
  updatedAt: string;
}

export interface TermInput {
  lang?: string | null | undefined;
  term?: string | undefined;
  translation?: string | null | undefined;
  doNotTranslate?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  note?: string | undefined;
}

const toTerm = (row: Selectable<GlossaryTermsTable>): GlossaryTerm => ({
  id: row.id,
  lang: row.lang || null,
  term: row.term,
  translation: row.translation,
  doNotTranslate: Boolean(row.do_not_translate),
  caseSensitive: Boolean(row.case_sensitive),
  note: row.note,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const keyOf = (term: string) => term.replace(/\s+/g, ' ').toLowerCase();

/** A project's glossary: the terms AI jobs are told and every translation is checked against. */
export class GlossaryService {
  constructor(private readonly terms: GlossaryRepository) {}

  async list(projectId: number, lang?: string): Promise<GlossaryTerm[]> {
    const rows =
      lang === undefined ? await this.terms.list(projectId) : await this.terms.applying(projectId, lang);
    return rows.map(toTerm);
  }

  /** The rules translations into `lang` follow. */
  async rulesFor(projectId: number, lang: string): Promise<GlossaryRule[]> {
    return (await this.terms.applying(projectId, lang)).map((row) => ({
      term: row.term,
      translation: row.translation,
      doNotTranslate: Boolean(row.do_not_translate),
      caseSensitive: Boolean(row.case_sensitive),
    }));
  }

  async create(projectId: number, settings: StoredSettings, input: TermInput): Promise<GlossaryTerm> {
    const term = this.validated(settings, {
      doNotTranslate: false,
      caseSensitive: false,
      note: '',
      lang: null,
      ...input,
    });
    const now = nowIso();
    return toTerm(
      await this.unique(() =>
        this.terms.create({ project_id: projectId, ...term, created_at: now, updated_at: now }),
      ),
    );
  }

  async update(
    projectId: number,
    settings: StoredSettings,
    id: number,
    patch: TermInput,
  ): Promise<GlossaryTerm> {
    const current = await this.terms.byId(projectId, id);
    if (!current) throw notFound(`Glossary term ${id} not found.`);
    const term = this.validated(settings, { ...toTerm(current), ...patch });
    const row = await this.unique(() => this.terms.update(projectId, id, { ...term, updated_at: nowIso() }));
    if (!row) throw notFound(`Glossary term ${id} not found.`);
    return toTerm(row);
  }

  async delete(projectId: number, id: number): Promise<void> {
    if (!(await this.terms.delete(projectId, id))) throw notFound(`Glossary term ${id} not found.`);
  }

  /** The row values of a term, or a 400/422 naming the fields to fix. */
  private validated(settings: StoredSettings, input: TermInput) {
    const term = input.term?.trim() ?? '';
    const translation = input.doNotTranslate ? null : (input.translation?.trim() ?? '');
    const fields: Record<string, string> = {};
    if (!term) fields.term = 'is required';
    if (translation === '') fields.translation = 'is required unless the term is do-not-translate';
    if (Object.keys(fields).length) throw badRequest('The term needs a text and a translation.', fields);
    const lang = input.lang ?? '';
    if (lang && !settings.languages.includes(lang)) {
      throw fail('unknown_language', `Language "${lang}" is not configured for this project.`, {
        lang: 'is not configured',
      });
    }
    return {
      lang,
      term,
      term_key: keyOf(term),
      translation,
      do_not_translate: input.doNotTranslate ? 1 : 0,
      case_sensitive: input.caseSensitive ? 1 : 0,
      note: input.note?.trim() ?? '',
    };
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!uniqueViolationColumns(error)) throw error;
      throw fail(
        'term_exists',
        'This term is already in the glossary for this language: edit that entry instead.',
        {
          term: 'is already in the glossary',
        },
      );
    }
  }
}

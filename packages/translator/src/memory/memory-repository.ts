import type { Kysely, Transaction } from 'kysely';
import { sha256Hex } from '@app/server-kit';
import type { TranslationState, TranslatorDB } from '../db/schema.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';

type Db = Kysely<TranslatorDB> | Transaction<TranslatorDB>;

/** A translation to remember: its phrase (whose key is the source text), value and state. */
export interface Remembered {
  phraseId: number;
  value: string;
  state: TranslationState;
}

const ENTRY = ['id', 'project_id', 'source', 'value', 'state', 'updated_at'] as const;

/**
 * Keeps the memory of translations people made or approved, in the caller's transaction: one entry per
 * source text and language, the latest one winning. Machine translations are not remembered.
 */
export async function remember(db: Db, projectId: number, lang: string, entries: Remembered[]) {
  const trusted = entries.filter((entry) => entry.state !== 'machine');
  const now = nowIso();
  for (const part of chunks(trusted, 500)) {
    const keys = new Map(
      (
        await db
          .selectFrom('phrases')
          .select(['id', 'key'])
          .where(
            'id',
            'in',
            part.map((entry) => entry.phraseId),
          )
          .execute()
      ).map((row) => [row.id, row.key]),
    );
    // One entry per source: the same text in two contexts in one write keeps the last value.
    const bySource = new Map<string, Remembered & { source: string }>();
    for (const entry of part) {
      const source = keys.get(entry.phraseId);
      if (source !== undefined) bySource.set(source, { ...entry, source });
    }
    if (!bySource.size) continue;
    await db
      .insertInto('translation_memory')
      .values(
        [...bySource.values()].map((entry) => ({
          project_id: projectId,
          lang,
          source: entry.source,
          source_hash: sha256Hex(entry.source),
          value: entry.value,
          state: entry.state,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['project_id', 'source_hash', 'lang']).doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'),
          state: eb.ref('excluded.state'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Reading the memory: exact matches by source, rows by id, and what was added since an index was built. */
export class MemoryRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  /** Entries of `lang` in the projects whose source is one of `sources` (sha256 matched, text compared). */
  async exact(projectIds: number[], lang: string, sources: string[]) {
    const found = [];
    for (const part of chunks([...new Set(sources)], 500)) {
      found.push(
        ...(await this.db
          .selectFrom('translation_memory')
          .select(ENTRY)
          .where('project_id', 'in', projectIds)
          .where('lang', '=', lang)
          .where(
            'source_hash',
            'in',
            part.map((source) => sha256Hex(source)),
          )
          .execute()),
      );
    }
    const wanted = new Set(sources);
    return found.filter((row) => wanted.has(row.source));
  }

  byIds(ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('translation_memory').select(ENTRY).where('id', 'in', ids).execute();
  }

  /** Sources of one project and language with an id above `after`, in id order. */
  sourcesAfter(projectId: number, lang: string, after: number) {
    return this.db
      .selectFrom('translation_memory')
      .select(['id', 'source'])
      .where('project_id', '=', projectId)
      .where('lang', '=', lang)
      .where('id', '>', after)
      .orderBy('id')
      .execute();
  }
}

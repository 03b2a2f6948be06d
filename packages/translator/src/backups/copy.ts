import type { Kysely, Selectable } from 'kysely';
import type { AiJobItemsTable, TranslatorDB } from '../db/schema.ts';

const PAGE = 1000;

/**
 * Reads pages until one comes back empty and writes each: `read` gets the number of rows read so far
 * and the last row (for keyset paging on a unique id).
 */
async function eachPage<R>(
  read: (offset: number, last: R | undefined) => Promise<R[]>,
  write: (rows: R[]) => Promise<unknown>,
): Promise<number> {
  let count = 0;
  let last: R | undefined;
  for (;;) {
    const rows = await read(count, last);
    if (!rows.length) return count;
    await write(rows);
    count += rows.length;
    last = rows.at(-1);
  }
}

/** Rows of each table copied for one project. */
export type CopyCounts = Record<keyof TranslatorDB, number>;

/** The tables whose rows have an `id` and a `project_id`, parents first. */
const OWNED = [
  'prompts',
  'phrases',
  'translations',
  'translation_history',
  'ai_jobs',
  'glossary_terms',
  'translation_memory',
] as const;
type OwnedTable = (typeof OWNED)[number];
/** What the copy needs to know of those tables: the same two columns, whatever the others are. */
type OwnedRow = { id: number | string; project_id: number };
type OwnedDB = Record<OwnedTable, OwnedRow>;

/**
 * Copies every row of one project — the project, its prompts, phrases, phrase URLs, translations and their
 * history, AI jobs and their items, glossary terms, translation memory — from `source` to `target`
 * (parents first, ids kept). Used both ways: a backup copies from the live database into a fresh SQLite
 * file, a restore from such a file into the live database. The caller runs it inside a transaction of
 * `source` (for a consistent read) or of `target` (all or nothing).
 */
export async function copyProject(
  source: Kysely<TranslatorDB>,
  target: Kysely<TranslatorDB>,
  projectId: number,
): Promise<CopyCounts> {
  const project = await source.selectFrom('projects').selectAll().where('id', '=', projectId).execute();
  if (project.length !== 1) throw new Error(`project ${projectId} not found`);
  await target.insertInto('projects').values(project).execute();
  const counts = { projects: 1 } as CopyCounts;

  // Rows are copied whole: the narrow type only names the columns paging needs.
  const from = source as unknown as Kysely<OwnedDB>;
  const to = target as unknown as Kysely<OwnedDB>;
  for (const table of OWNED) {
    counts[table] = await eachPage(
      (_, last: OwnedRow | undefined) =>
        from
          .selectFrom(table)
          .selectAll()
          .where('project_id', '=', projectId)
          .$if(last !== undefined, (query) => query.where('id', '>', last!.id))
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      (rows) => to.insertInto(table).values(rows).execute(),
    );
  }

  counts.phrase_urls = await eachPage(
    (offset) =>
      source
        .selectFrom('phrase_urls')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('phrase_id')
        .orderBy('url')
        .limit(PAGE)
        .offset(offset)
        .execute(),
    (rows) => target.insertInto('phrase_urls').values(rows).execute(),
  );
  // Items belong to a job (only unfinished jobs keep theirs).
  counts.ai_job_items = await eachPage<Selectable<AiJobItemsTable>>(
    (_, last) =>
      source
        .selectFrom('ai_job_items')
        .innerJoin('ai_jobs', 'ai_jobs.id', 'ai_job_items.job_id')
        .selectAll('ai_job_items')
        .where('ai_jobs.project_id', '=', projectId)
        .$if(last !== undefined, (query) =>
          query.where((eb) =>
            eb.or([
              eb('ai_job_items.job_id', '>', last!.job_id),
              eb.and([
                eb('ai_job_items.job_id', '=', last!.job_id),
                eb('ai_job_items.phrase_id', '>', last!.phrase_id),
              ]),
            ]),
          ),
        )
        .orderBy('ai_job_items.job_id')
        .orderBy('ai_job_items.phrase_id')
        .limit(PAGE)
        .execute(),
    (rows) => target.insertInto('ai_job_items').values(rows).execute(),
  );
  return counts;
}

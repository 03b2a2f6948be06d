import { sql, type Kysely } from 'kysely';
import { isForeignKeyViolation } from '@app/server-kit';
import type { TranslatorDB } from '../db/schema.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';

/** A phrase waiting for its screenshot, and the page it will be taken on (none: no page may be opened). */
export interface PendingShot {
  phraseId: number;
  key: string;
  url: string | undefined;
}

/** The phrase's pages read at a time while looking for one that may be opened. */
const URL_PAGE = 200;

/** What a capture left: the image, or why there is none. */
export type ShotOutcome =
  { png: Buffer; width: number; height: number; error?: undefined } | { png?: undefined; error: string };

/** The `phrase_screenshots` table: one image (or one failure) per phrase. */
export class ScreenshotsRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  /**
   * The project's phrases (not in the trash) that were seen on a page and have no screenshot: never
   * tried, or failed before `retryFailedBefore` (an ISO time; failures are not retried when undefined).
   * Each with the first of its pages (in address order) that `mayOpen` accepts, oldest phrases first;
   * `url` is undefined when it accepts none of them.
   */
  async pending(
    projectId: number,
    limit: number,
    retryFailedBefore: string | undefined,
    mayOpen: (url: string) => boolean,
  ): Promise<PendingShot[]> {
    const rows = await this.pendingQuery(projectId, retryFailedBefore)
      .select(['p.id', 'p.key'])
      .orderBy('p.id')
      .limit(limit)
      .execute();
    const shots: PendingShot[] = [];
    for (const row of rows)
      shots.push({ phraseId: row.id, key: row.key, url: await this.firstPage(row.id, mayOpen) });
    return shots;
  }

  /** The first of the phrase's pages, in address order, that `mayOpen` accepts. */
  private async firstPage(phraseId: number, mayOpen: (url: string) => boolean) {
    for (let after: string | undefined; ;) {
      let query = this.db
        .selectFrom('phrase_urls')
        .select('url')
        .where('phrase_id', '=', phraseId)
        .orderBy('url')
        .limit(URL_PAGE);
      if (after !== undefined) query = query.where('url', '>', after);
      const urls = (await query.execute()).map((row) => row.url);
      const found = urls.find(mayOpen);
      if (found !== undefined || urls.length < URL_PAGE) return found;
      after = urls.at(-1);
    }
  }

  /** Counts what `pending` would find without a limit. */
  async countPending(projectId: number, retryFailedBefore?: string): Promise<number> {
    const row = await this.pendingQuery(projectId, retryFailedBefore)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Phrases seen on a page, not in the trash, without a screenshot (or failed before `retryFailedBefore`). */
  private pendingQuery(projectId: number, retryFailedBefore: string | undefined) {
    return this.db
      .selectFrom('phrases as p')
      .leftJoin('phrase_screenshots as s', 's.phrase_id', 'p.id')
      .where('p.project_id', '=', projectId)
      .where('p.status', '!=', 'trash')
      .where(({ eb, or, and }) =>
        or([
          eb('s.phrase_id', 'is', null),
          ...(retryFailedBefore === undefined
            ? []
            : [and([eb('s.png', 'is', null), eb('s.captured_at', '<', retryFailedBefore)])]),
        ]),
      )
      .where(sql<boolean>`exists (select 1 from phrase_urls u where u.phrase_id = p.id)`);
  }

  /** Counts the project's screenshots and failed captures. */
  async counts(projectId: number): Promise<{ captured: number; failed: number }> {
    const rows = await this.db
      .selectFrom('phrase_screenshots')
      .select([
        sql<number>`case when png is null then 0 else 1 end`.as('ok'),
        (eb) => eb.fn.countAll<number>().as('n'),
      ])
      .where('project_id', '=', projectId)
      .groupBy(sql`case when png is null then 0 else 1 end`)
      .execute();
    const counts = { captured: 0, failed: 0 };
    for (const row of rows) counts[Number(row.ok) ? 'captured' : 'failed'] += Number(row.n);
    return counts;
  }

  /** Stores a capture's outcome for the phrase (replacing an earlier one); nothing when the phrase is gone. */
  async save(projectId: number, phraseId: number, url: string, outcome: ShotOutcome): Promise<void> {
    const values = {
      url: url.slice(0, 2048),
      png: outcome.png ?? null,
      width: outcome.png ? outcome.width : null,
      height: outcome.png ? outcome.height : null,
      error: outcome.error === undefined ? null : outcome.error.slice(0, 1000),
      captured_at: nowIso(),
    };
    try {
      await this.db
        .insertInto('phrase_screenshots')
        .values({ phrase_id: phraseId, project_id: projectId, ...values })
        .onConflict((oc) => oc.column('phrase_id').doUpdateSet(values))
        .execute();
    } catch (error) {
      // Deleted while its page was being rendered.
      if (!isForeignKeyViolation(error)) throw error;
    }
  }

  /** The phrase's screenshot, if it has one (and belongs to the project). */
  image(projectId: number, phraseId: number) {
    return this.db
      .selectFrom('phrase_screenshots')
      .select(['png', 'url', 'captured_at'])
      .where('project_id', '=', projectId)
      .where('phrase_id', '=', phraseId)
      .where('png', 'is not', null)
      .executeTakeFirst();
  }

  /** The screenshots of the phrases among `phraseIds` that have one, by phrase id. */
  async images(projectId: number, phraseIds: number[]): Promise<Map<number, Buffer>> {
    const found = new Map<number, Buffer>();
    for (const part of chunks([...new Set(phraseIds)], 500)) {
      const rows = await this.db
        .selectFrom('phrase_screenshots')
        .select(['phrase_id', 'png'])
        .where('project_id', '=', projectId)
        .where('phrase_id', 'in', part)
        .where('png', 'is not', null)
        .execute();
      for (const row of rows) if (row.png) found.set(row.phrase_id, Buffer.from(row.png));
    }
    return found;
  }
}

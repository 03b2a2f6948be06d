import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { PhrasesTable, PhraseStatus, TranslatorDB } from '../db/schema.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import type { VarSlot } from '@app/slots';
import { carryOverTranslations, type NewPhrase } from './carry-over-repository.ts';

type Db = Kysely<TranslatorDB> | Transaction<TranslatorDB>;

export interface SeenPhrase {
  key: string;
  context: string;
  varSlots: VarSlot[];
  /** The words in its `{{text:N}}` slots, when the page reported them. */
  slotTexts?: string[] | undefined;
}

/** A project's `phrases`, with the URLs they were seen on and the translations that go with them. */
export class PhrasesRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  /**
   * In one transaction: creates the phrases (by key hash) the project does not have yet, as pending —
   * while fewer than `maxPending` wait, if given — and, when `url` is given, records every phrase as seen
   * there (unless `url` is a new page and the project already has `maxUrls`) and carries the translations
   * of texts the new phrases replaced on that page over to them (see carry-over-repository.ts).
   * `created` counts the phrases this call created, `refused` those that did not fit, `pending` how many
   * waited before, `carried` the new phrases that got translations.
   */
  register(
    projectId: number,
    byHash: Map<string, SeenPhrase>,
    url: string | undefined,
    caps: { maxPending?: number | undefined; maxUrls?: number | undefined },
  ): Promise<{ created: number; refused: number; pending: number; carried: number }> {
    const { maxPending } = caps;
    const now = nowIso();
    const day = now.slice(0, 10);
    const hashes = [...byHash.keys()];
    return this.db.transaction().execute(async (trx) => {
      let created = 0;
      let refused = 0;
      let pending = 0;
      const fresh: NewPhrase[] = [];
      if (maxPending !== undefined) pending = (await this.counts(projectId, trx)).pending;
      let room = maxPending === undefined ? Infinity : Math.max(0, maxPending - pending);
      const ids: number[] = [];
      for (const part of chunks(hashes, 500)) {
        const existing = await trx
          .selectFrom('phrases')
          .select(['id', 'key_hash', 'slot_texts'])
          .where('project_id', '=', projectId)
          .where('key_hash', 'in', part)
          .execute();
        const known = new Set(existing.map((row) => row.key_hash));
        // Phrases registered before their pages reported the words in their slots learn them now.
        for (const row of existing) {
          const texts = byHash.get(row.key_hash)!.slotTexts;
          if (row.slot_texts === null && texts?.length)
            await trx
              .updateTable('phrases')
              .set({ slot_texts: JSON.stringify(texts) })
              .where('id', '=', row.id)
              .execute();
        }
        ids.push(...existing.map((row) => row.id));
        const unknown = part.filter((hash) => !known.has(hash));
        const wanted = unknown.slice(0, room);
        refused += unknown.length - wanted.length;
        room -= wanted.length;
        if (!wanted.length) continue;
        const inserted = await trx
          .insertInto('phrases')
          .values(
            wanted.map((hash) => {
              const phrase = byHash.get(hash)!;
              return {
                project_id: projectId,
                key: phrase.key,
                context: phrase.context,
                key_hash: hash,
                status: 'pending' as const,
                var_slots: JSON.stringify(phrase.varSlots),
                slot_count: phrase.varSlots.length,
                slot_texts: phrase.slotTexts?.length ? JSON.stringify(phrase.slotTexts) : null,
                first_seen_day: day,
                created_at: now,
                updated_at: now,
              };
            }),
          )
          .onConflict((oc) => oc.columns(['project_id', 'key_hash']).doNothing())
          .returning(['id', 'key_hash'])
          .execute();
        created += inserted.length;
        ids.push(...inserted.map((row) => row.id));
        fresh.push(...inserted.map((row) => ({ id: row.id, ...byHash.get(row.key_hash)! })));
        if (inserted.length < wanted.length) {
          // Created meanwhile by a concurrent request: fetch their ids for the URL rows.
          const got = new Set(inserted.map((row) => row.key_hash));
          const raced = await trx
            .selectFrom('phrases')
            .select('id')
            .where('project_id', '=', projectId)
            .where(
              'key_hash',
              'in',
              wanted.filter((hash) => !got.has(hash)),
            )
            .execute();
          ids.push(...raced.map((row) => row.id));
        }
      }
      // None of the new phrases fit: nothing is recorded, the caller refuses the call.
      if (refused && !created) return { created, refused, pending, carried: 0 };
      if (url && caps.maxUrls !== undefined && !(await this.roomForPage(trx, projectId, url, caps.maxUrls)))
        return { created, refused, pending, carried: 0 };
      let carried = 0;
      if (url) {
        for (const part of chunks(ids, 500)) {
          await trx
            .insertInto('phrase_urls')
            .values(part.map((id) => ({ phrase_id: id, project_id: projectId, url, first_seen_day: day })))
            .onConflict((oc) => oc.columns(['phrase_id', 'url']).doNothing())
            .execute();
        }
        carried = await carryOverTranslations(trx, projectId, url, fresh, new Set(ids));
      }
      return { created, refused, pending, carried };
    });
  }

  /** Whether `url` is a page of the project already, or one more still fits under `maxUrls`. */
  private async roomForPage(db: Db, projectId: number, url: string, maxUrls: number) {
    const known = await db
      .selectFrom('phrase_urls')
      .select('phrase_id')
      .where('project_id', '=', projectId)
      .where('url', '=', url)
      .limit(1)
      .executeTakeFirst();
    if (known) return true;
    const pages = await db
      .selectFrom('phrase_urls')
      .select((eb) => eb.fn.count<number>('url').distinct().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(pages.n) < maxUrls;
  }

  async counts(projectId: number, db: Db = this.db): Promise<Record<PhraseStatus, number>> {
    const rows = await db
      .selectFrom('phrases')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('project_id', '=', projectId)
      .groupBy('status')
      .execute();
    const counts = { pending: 0, approved: 0, trash: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  /** Sets the status of the project's phrases among `ids`, in one transaction; how many changed. */
  async setStatus(projectId: number, ids: number[], status: PhraseStatus): Promise<number> {
    let updated = 0;
    await this.db.transaction().execute(async (trx) => {
      for (const part of chunks([...new Set(ids)], 1000)) {
        const result = await trx
          .updateTable('phrases')
          .set({ status, updated_at: nowIso() })
          .where('project_id', '=', projectId)
          .where('id', 'in', part)
          .executeTakeFirst();
        updated += Number(result.numUpdatedRows);
      }
    });
    return updated;
  }

  /** Ids of approved phrases without a translation in `lang`. */
  async untranslatedIds(projectId: number, lang: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('phrases as p')
      .select('p.id')
      .where('p.project_id', '=', projectId)
      .where('p.status', '=', 'approved')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('translations as t')
              .select(sql.lit(1).as('one'))
              .whereRef('t.phrase_id', '=', 'p.id')
              .where('t.lang', '=', lang),
          ),
        ),
      )
      .orderBy('p.id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Deletes the project's phrases among `ids` with their translations, URLs and screenshots, in one transaction. */
  async delete(projectId: number, ids: number[]): Promise<number> {
    let deleted = 0;
    await this.db.transaction().execute(async (trx) => {
      for (const part of chunks([...new Set(ids)], 1000)) {
        await trx
          .deleteFrom('translations')
          .where('project_id', '=', projectId)
          .where('phrase_id', 'in', part)
          .execute();
        await trx
          .deleteFrom('phrase_urls')
          .where('project_id', '=', projectId)
          .where('phrase_id', 'in', part)
          .execute();
        await trx
          .deleteFrom('phrase_screenshots')
          .where('project_id', '=', projectId)
          .where('phrase_id', 'in', part)
          .execute();
        const result = await trx
          .deleteFrom('phrases')
          .where('project_id', '=', projectId)
          .where('id', 'in', part)
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
      }
    });
    return deleted;
  }

  /** Deletes the project's pending phrases with their translations, URLs and screenshots, in one transaction. */
  clearPending(projectId: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const pending = trx
        .selectFrom('phrases')
        .select('id')
        .where('project_id', '=', projectId)
        .where('status', '=', 'pending');
      await trx.deleteFrom('translations').where('phrase_id', 'in', pending).execute();
      await trx.deleteFrom('phrase_urls').where('phrase_id', 'in', pending).execute();
      await trx.deleteFrom('phrase_screenshots').where('phrase_id', 'in', pending).execute();
      const result = await trx
        .deleteFrom('phrases')
        .where('project_id', '=', projectId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  get(projectId: number, id: number) {
    return this.db
      .selectFrom('phrases')
      .select(['id', 'key', 'context', 'status', 'var_slots'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async update(projectId: number, id: number, values: Updateable<PhrasesTable>): Promise<void> {
    await this.db
      .updateTable('phrases')
      .set(values)
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .execute();
  }

  /** Ids of the phrases of a project among `ids`. */
  async existing(projectId: number, ids: number[]): Promise<number[]> {
    const found: number[] = [];
    for (const part of chunks([...new Set(ids)], 1000)) {
      const rows = await this.db
        .selectFrom('phrases')
        .select('id')
        .where('project_id', '=', projectId)
        .where('id', 'in', part)
        .execute();
      found.push(...rows.map((row) => row.id));
    }
    return found;
  }
}

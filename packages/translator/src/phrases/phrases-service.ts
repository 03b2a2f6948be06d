import { sql, type Kysely } from 'kysely';
import {
  AppError,
  conflict,
  notFound,
  sha256Hex,
  uniqueViolationColumns,
  validationFailed,
} from '@app/server-kit';
import type { PhraseStatus, TranslatorDB } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import { isOnlySlots, normaliseKey, sameSlots, slotsOf, type VarSlot } from './slots.ts';

export const MAX_KEYS_PER_REQUEST = 1000;

export interface Phrase {
  id: number;
  key: string;
  context: string;
  status: PhraseStatus;
  varSlots: VarSlot[];
}

export interface RegisterResult {
  ok: true;
  registered: number;
  keyMap: Record<string, string>;
}

export const phraseHash = (key: string, context: string) => sha256Hex(`${key}\u0000${context}`);

/** How long a page waits before trying again when the project is full of unreviewed phrases. */
const FULL_RETRY_AFTER_S = 600;

const tooManyPending = (pending: number, max: number) =>
  new AppError(
    429,
    'rate_limited',
    `This project holds ${pending} phrases waiting for review; pages add new ones only while fewer than ${max} ` +
      'wait. Review or clear pending phrases in the dashboard.',
    undefined,
    { 'retry-after': String(FULL_RETRY_AFTER_S) },
  );

/** Phrases (text nodes) of a project: discovery, review status, edits and deletion. */
export class PhrasesService {
  constructor(
    private readonly ctx: TranslatorContext,
    private readonly onDataChanged: (projectId: number) => void,
  ) {}

  /**
   * Upserts the phrases a page reported, in one transaction: new (key, context) pairs are created as
   * pending, every phrase remembers the URL it was seen on. `registered` counts the phrases created by
   * this call (a concurrent duplicate is created once, by whoever gets there first). Page-key calls pass
   * caps: new phrases are created only while fewer than `maxPending` wait for review (a call none of whose
   * new phrases fit is 429), and a page the project has not seen is recorded only while it has fewer than
   * `maxUrls` pages (else the phrases are registered without it).
   */
  async register(
    projectId: number,
    keys: { key: string; context?: string | undefined }[],
    url: string | undefined,
    caps: { maxPending?: number | undefined; maxUrls?: number | undefined } = {},
  ): Promise<RegisterResult> {
    const { maxPending } = caps;
    const keyMap: Record<string, string> = {};
    const byHash = new Map<string, { key: string; context: string; varSlots: VarSlot[] }>();
    for (const item of keys) {
      const context = item.context ?? '';
      const normal = normaliseKey(item.key);
      if (normal.changed) keyMap[item.key] = normal.key;
      if (isOnlySlots(normal.key)) continue;
      byHash.set(phraseHash(normal.key, context), { key: normal.key, context, varSlots: normal.varSlots });
    }
    if (!byHash.size) return { ok: true, registered: 0, keyMap };
    const now = nowIso();
    const day = now.slice(0, 10);
    const hashes = [...byHash.keys()];
    const registered = await this.ctx.db.transaction().execute(async (trx) => {
      let created = 0;
      let refused = 0;
      let pending = 0;
      if (maxPending !== undefined) pending = (await this.counts(projectId, trx)).pending;
      let room = maxPending === undefined ? Infinity : Math.max(0, maxPending - pending);
      const ids: number[] = [];
      for (const part of chunks(hashes, 500)) {
        const existing = await trx
          .selectFrom('phrases')
          .select(['id', 'key_hash'])
          .where('project_id', '=', projectId)
          .where('key_hash', 'in', part)
          .execute();
        const known = new Set(existing.map((row) => row.key_hash));
        ids.push(...existing.map((row) => row.id));
        const unknown = part.filter((hash) => !known.has(hash));
        const fresh = unknown.slice(0, room);
        refused += unknown.length - fresh.length;
        room -= fresh.length;
        if (!fresh.length) continue;
        const inserted = await trx
          .insertInto('phrases')
          .values(
            fresh.map((hash) => {
              const phrase = byHash.get(hash)!;
              return {
                project_id: projectId,
                key: phrase.key,
                context: phrase.context,
                key_hash: hash,
                status: 'pending' as const,
                var_slots: JSON.stringify(phrase.varSlots),
                slot_count: phrase.varSlots.length,
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
        if (inserted.length < fresh.length) {
          // Created meanwhile by a concurrent request: fetch their ids for the URL rows.
          const got = new Set(inserted.map((row) => row.key_hash));
          const raced = await trx
            .selectFrom('phrases')
            .select('id')
            .where('project_id', '=', projectId)
            .where(
              'key_hash',
              'in',
              fresh.filter((hash) => !got.has(hash)),
            )
            .execute();
          ids.push(...raced.map((row) => row.id));
        }
      }
      if (refused && !created) throw tooManyPending(pending, maxPending!);
      if (url && caps.maxUrls !== undefined && !(await this.roomForPage(trx, projectId, url, caps.maxUrls)))
        return created;
      if (url) {
        for (const part of chunks(ids, 500)) {
          await trx
            .insertInto('phrase_urls')
            .values(part.map((id) => ({ phrase_id: id, project_id: projectId, url, first_seen_day: day })))
            .onConflict((oc) => oc.columns(['phrase_id', 'url']).doNothing())
            .execute();
        }
      }
      return created;
    });
    return { ok: true, registered, keyMap };
  }

  /** Whether `url` is a page of the project already, or one more still fits under `maxUrls`. */
  private async roomForPage(db: Kysely<TranslatorDB>, projectId: number, url: string, maxUrls: number) {
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

  async counts(
    projectId: number,
    db: Kysely<TranslatorDB> = this.ctx.db,
  ): Promise<Record<PhraseStatus, number>> {
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

  async setStatus(projectId: number, ids: number[], status: PhraseStatus): Promise<number> {
    let updated = 0;
    await this.ctx.db.transaction().execute(async (trx) => {
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
    this.onDataChanged(projectId);
    return updated;
  }

  /** Ids of approved phrases without a translation in `lang`. */
  async untranslatedIds(projectId: number, lang: string): Promise<number[]> {
    const rows = await this.ctx.db
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

  /** Deletes phrases with their translations and URLs; ids of other projects are left alone. */
  async delete(projectId: number, ids: number[]): Promise<number> {
    let deleted = 0;
    await this.ctx.db.transaction().execute(async (trx) => {
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
        const result = await trx
          .deleteFrom('phrases')
          .where('project_id', '=', projectId)
          .where('id', 'in', part)
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
      }
    });
    this.onDataChanged(projectId);
    return deleted;
  }

  async deleteOne(projectId: number, id: number): Promise<void> {
    if ((await this.delete(projectId, [id])) === 0) throw notFound(`Phrase ${id} not found.`);
  }

  async clearPending(projectId: number): Promise<number> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const pending = trx
        .selectFrom('phrases')
        .select('id')
        .where('project_id', '=', projectId)
        .where('status', '=', 'pending');
      await trx.deleteFrom('translations').where('phrase_id', 'in', pending).execute();
      await trx.deleteFrom('phrase_urls').where('phrase_id', 'in', pending).execute();
      const result = await trx
        .deleteFrom('phrases')
        .where('project_id', '=', projectId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  async get(projectId: number, id: number): Promise<Phrase> {
    const row = await this.ctx.db
      .selectFrom('phrases')
      .select(['id', 'key', 'context', 'status', 'var_slots'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`Phrase ${id} not found.`);
    return {
      id: row.id,
      key: row.key,
      context: row.context,
      status: row.status,
      varSlots: JSON.parse(row.var_slots),
    };
  }

  /**
   * Edits a phrase's key and slots. The slots must be exactly the tokens in the key (when only the key
   * is given they are read from it); a key that clashes with another phrase of the same context is 409.
   */
  async edit(
    projectId: number,
    id: number,
    change: { key?: string | undefined; varSlots?: VarSlot[] | undefined },
  ) {
    const current = await this.get(projectId, id);
    const key = change.key ?? current.key;
    const inKey = slotsOf(key);
    const varSlots = change.varSlots ?? inKey;
    if (!sameSlots(varSlots, inKey)) {
      throw validationFailed(
        {
          varSlots: `must list exactly the slot tokens of the key (${inKey.map((s) => `{{${s.type}:${s.index}}}`).join(' ') || 'none'})`,
        },
        'varSlots do not match the slot tokens in key.',
      );
    }
    try {
      await this.ctx.db
        .updateTable('phrases')
        .set({
          key,
          key_hash: phraseHash(key, current.context),
          var_slots: JSON.stringify(varSlots),
          slot_count: varSlots.length,
          updated_at: nowIso(),
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    } catch (error) {
      if (uniqueViolationColumns(error))
        throw conflict('Another phrase with this key and context exists.', { key: 'is already taken' });
      throw error;
    }
    this.onDataChanged(projectId);
    return { ...current, key, varSlots };
  }

  /** Ids of the phrases of a project among `ids` (the others do not exist or belong to someone else). */
  async existing(projectId: number, ids: number[]): Promise<number[]> {
    const found: number[] = [];
    for (const part of chunks([...new Set(ids)], 1000)) {
      const rows = await this.ctx.db
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

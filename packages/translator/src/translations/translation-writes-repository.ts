import type { Kysely, Transaction } from 'kysely';
import type { TranslationSource, TranslationState, TranslatorDB } from '../db/schema.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import { remember } from '../memory/memory-repository.ts';

type Db = Kysely<TranslatorDB> | Transaction<TranslatorDB>;

/** Who writes translations, and what they become. */
export interface Authorship {
  state: TranslationState;
  source: TranslationSource;
  actor: string;
  /** The history entry a revert undoes. */
  revertedId?: number | undefined;
}

/**
 * Whether a write is a machine's (an AI job, or the memory filling in before it): it never replaces a
 * person's.
 */
export const byMachine = (author: Pick<Authorship, 'source'>) =>
  author.source === 'ai' || author.source === 'memory';

/** What a write did: the phrases whose translation changed, and those that only got a suggestion. */
export interface WriteOutcome {
  changed: number[];
  suggested: number[];
}

/** Translations an AI job (or the memory filling in before it) may replace: a machine's, never a person's. */
const MACHINE_OWNED = 'machine';

/**
 * Creates or replaces the translations of one language (phrase id → value) and records each change in
 * the history (and a person's in the translation memory), in the caller's transaction. An AI or memory
 * write never replaces a human or reviewed translation:
 * its text is kept beside it as a suggestion (the conflict update is conditional, so a person's save
 * that lands meanwhile still wins). An identical value in the same state is no change.
 */
export async function saveTranslations(
  db: Db,
  projectId: number,
  lang: string,
  values: Map<number, string>,
  author: Authorship,
): Promise<WriteOutcome> {
  const now = nowIso();
  const outcome: WriteOutcome = { changed: [], suggested: [] };
  const machine = byMachine(author);
  for (const part of chunks([...values.keys()], 500)) {
    const before = new Map(
      (
        await db
          .selectFrom('translations')
          .select(['phrase_id', 'value', 'state', 'outdated_from'])
          .where('lang', '=', lang)
          .where('phrase_id', 'in', part)
          .execute()
      ).map((row) => [row.phrase_id, row]),
    );
    const protectedIds = machine
      ? part.filter((id) => (before.get(id)?.state ?? MACHINE_OWNED) !== MACHINE_OWNED)
      : [];
    // A suggestion that says what the translation already says is none.
    for (const id of protectedIds.filter((id) => before.get(id)!.value !== values.get(id))) {
      await db
        .updateTable('translations')
        .set({ suggestion: values.get(id)! })
        .where('phrase_id', '=', id)
        .where('lang', '=', lang)
        .execute();
    }
    outcome.suggested.push(...protectedIds);
    const writes = part.filter((id) => {
      const old = before.get(id);
      // Saving an outdated translation unchanged says it is still right: that is a change too.
      const same = old?.value === values.get(id) && old?.state === author.state && !old.outdated_from;
      return !protectedIds.includes(id) && !same;
    });
    if (!writes.length) continue;
    const written = await db
      .insertInto('translations')
      .values(
        writes.map((phraseId) => ({
          project_id: projectId,
          phrase_id: phraseId,
          lang,
          value: values.get(phraseId)!,
          state: author.state,
          suggestion: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => {
        const update = oc.columns(['phrase_id', 'lang']).doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'),
          state: eb.ref('excluded.state'),
          suggestion: null,
          outdated_from: null,
          updated_at: eb.ref('excluded.updated_at'),
        }));
        return machine ? update.where('translations.state', '=', MACHINE_OWNED) : update;
      })
      .returning('phrase_id')
      .execute();
    const changed = written.map((row) => row.phrase_id);
    await recordHistory(
      db,
      changed.map((phraseId) => ({
        projectId,
        phraseId,
        lang,
        old: before.get(phraseId),
        next: { value: values.get(phraseId)!, state: author.state },
      })),
      author,
    );
    await remember(
      db,
      projectId,
      lang,
      changed.map((phraseId) => ({ phraseId, value: values.get(phraseId)!, state: author.state })),
    );
    outcome.changed.push(...changed);
  }
  return outcome;
}

interface Version {
  value: string;
  state: TranslationState;
}

interface HistoryChange {
  projectId: number;
  phraseId: number;
  lang: string;
  old: Version | undefined;
  next: Version | undefined;
}

/** Appends history entries (in the caller's transaction). */
export async function recordHistory(db: Db, changes: HistoryChange[], author: Omit<Authorship, 'state'>) {
  if (!changes.length) return;
  const now = nowIso();
  await db
    .insertInto('translation_history')
    .values(
      changes.map((change) => ({
        project_id: change.projectId,
        phrase_id: change.phraseId,
        lang: change.lang,
        old_value: change.old?.value ?? null,
        old_state: change.old?.state ?? null,
        new_value: change.next?.value ?? null,
        new_state: change.next?.state ?? null,
        source: author.source,
        actor: author.actor,
        reverted_id: author.revertedId ?? null,
        created_at: now,
      })),
    )
    .execute();
}

import { notFound } from '@app/server-kit';
import { slotSignature } from '@app/slots';
import type { Selectable } from 'kysely';
import type { TranslationHistoryTable, TranslationSource, TranslationState } from '../db/schema.ts';
import type { ChangeFeed } from '../changes.ts';
import { fail } from '../errors/catalogue.ts';
import type { TranslationsRepository } from './translations-repository.ts';

export interface HistoryEntry {
  id: number;
  phraseId: number;
  lang: string;
  oldValue: string | null;
  newValue: string | null;
  oldState: TranslationState | null;
  newState: TranslationState | null;
  source: TranslationSource;
  actor: string;
  revertedId: number | null;
  createdAt: string;
}

function toEntry(row: Selectable<TranslationHistoryTable>): HistoryEntry {
  return {
    id: row.id,
    phraseId: row.phrase_id,
    lang: row.lang,
    oldValue: row.old_value,
    newValue: row.new_value,
    oldState: row.old_state,
    newState: row.new_state,
    source: row.source,
    actor: row.actor,
    revertedId: row.reverted_id,
    createdAt: row.created_at,
  };
}

/** What people do to translations besides writing them: review, read their history, revert a change. */
export class TranslationHistoryService {
  constructor(
    private readonly translations: TranslationsRepository,
    private readonly changes: ChangeFeed,
  ) {}

  /** Marks translations `reviewed` (or back to `human`); the ids that moved. */
  async setState(
    projectId: number,
    ids: number[],
    state: Exclude<TranslationState, 'machine'>,
    actor: string,
  ) {
    const moved = await this.translations.setState(projectId, ids, { state, source: 'human', actor });
    if (moved.length) this.changes.announce('data', projectId);
    return { ok: true as const, updated: moved.length };
  }

  /** The languages of translations (by id) or history entries, so a member's languages can be checked. */
  languagesOf(projectId: number, kind: 'translations' | 'history', ids: number[]) {
    return this.translations.languagesOf(
      projectId,
      kind === 'history' ? 'translation_history' : 'translations',
      ids,
    );
  }

  async list(projectId: number, phraseId: number, lang: string) {
    return { entries: (await this.translations.history(projectId, phraseId, lang)).map(toEntry) };
  }

  /**
   * Undoes one change: the translation gets the value and state it had before (or goes, if the change
   * created it). The undoing is itself a change, with its own history entry pointing at the one undone.
   */
  async revert(projectId: number, entryId: number, actor: string) {
    const entry = await this.translations.historyEntry(projectId, entryId);
    if (!entry) throw notFound(`History entry ${entryId} not found.`);
    const author = { source: 'revert' as const, actor, revertedId: entry.id };
    const changed = await this.translations.transaction(async (trx) => {
      const current = await this.translations.current(projectId, entry.phrase_id, entry.lang, trx);
      if (entry.old_value === null || entry.old_state === null) {
        return current ? this.translations.deleteOne(projectId, current.id, author, trx) : false;
      }
      const [phrase] = await this.translations.phrasesByIds(projectId, [entry.phrase_id], trx);
      if (phrase && slotSignature(phrase.key) !== slotSignature(entry.old_value)) {
        throw fail('slot_mismatch', 'The phrase’s slots changed since: the old value no longer fits.', {
          value: 'must contain exactly the slot tokens of the key',
        });
      }
      const values = new Map([[entry.phrase_id, entry.old_value]]);
      const outcome = await this.translations.save(
        projectId,
        entry.lang,
        values,
        { ...author, state: entry.old_state },
        trx,
      );
      return outcome.changed.length > 0;
    });
    if (changed) this.changes.announce('data', projectId);
    return { ok: true as const, changed };
  }
}

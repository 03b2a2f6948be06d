import type { Updateable } from 'kysely';
import type { PhrasesTable, PhraseStatus } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { SeenPhrase } from '../phrases/phrases-repository.ts';
import type { PhrasesStore } from '../phrases/phrases-service.ts';
import { InMemoryTables, type PhraseRow } from './in-memory-tables.ts';

/** What the database says when a write breaks `UNIQUE (project_id, key_hash)` (SQLite's wording). */
const duplicateKeyHash = () =>
  Object.assign(new Error('UNIQUE constraint failed: phrases.project_id, phrases.key_hash'), {
    code: 'SQLITE_CONSTRAINT_UNIQUE',
  });

/** What PhrasesRepository keeps in SQL, in memory: a project's phrases and the pages they were seen on. */
export class InMemoryPhrasesRepository implements PhrasesStore {
  constructor(readonly tables = new InMemoryTables()) {}

  async register(
    projectId: number,
    byHash: Map<string, SeenPhrase>,
    url: string | undefined,
    caps: { maxPending?: number | undefined; maxUrls?: number | undefined },
  ): Promise<{ created: number; refused: number; pending: number; carried: number }> {
    // Carrying translations over to changed texts (carry-over-repository.ts) is not modelled: nothing is carried.
    const carried = 0;
    const { maxPending, maxUrls } = caps;
    const pending = maxPending === undefined ? 0 : (await this.counts(projectId)).pending;
    let room = maxPending === undefined ? Infinity : Math.max(0, maxPending - pending);
    let created = 0;
    let refused = 0;
    const ids: number[] = [];
    const now = nowIso();
    for (const [hash, phrase] of byHash) {
      const known = this.ofProject(projectId).find((row) => row.key_hash === hash);
      if (known) {
        if (known.slot_texts === null && phrase.slotTexts?.length)
          known.slot_texts = JSON.stringify(phrase.slotTexts);
        ids.push(known.id);
        continue;
      }
      if (room <= 0) {
        refused += 1;
        continue;
      }
      room -= 1;
      created += 1;
      const row: PhraseRow = {
        id: this.tables.nextId('phrases'),
        project_id: projectId,
        key: phrase.key,
        context: phrase.context,
        key_hash: hash,
        status: 'pending',
        var_slots: JSON.stringify(phrase.varSlots),
        slot_count: phrase.varSlots.length,
        slot_texts: phrase.slotTexts?.length ? JSON.stringify(phrase.slotTexts) : null,
        first_seen_day: now.slice(0, 10),
        created_at: now,
        updated_at: now,
      };
      this.tables.phrases.push(row);
      ids.push(row.id);
    }
    if (refused && !created) return { created, refused, pending, carried };
    if (url && (maxUrls === undefined || this.roomForPage(projectId, url, maxUrls))) {
      const { phraseUrls } = this.tables;
      for (const id of ids) {
        if (!phraseUrls.some((row) => row.phrase_id === id && row.url === url))
          phraseUrls.push({ phrase_id: id, project_id: projectId, url, first_seen_day: now.slice(0, 10) });
      }
    }
    return { created, refused, pending, carried };
  }

  /** The distinct URLs the project's phrases were seen on. */
  pagesOf(projectId: number): Set<string> {
    return new Set(
      this.tables.phraseUrls.filter((row) => row.project_id === projectId).map((row) => row.url),
    );
  }

  async counts(projectId: number): Promise<Record<PhraseStatus, number>> {
    const counts = { pending: 0, approved: 0, trash: 0 };
    for (const row of this.ofProject(projectId)) counts[row.status] += 1;
    return counts;
  }

  async setStatus(projectId: number, ids: number[], status: PhraseStatus): Promise<number> {
    const chosen = this.among(projectId, ids);
    for (const row of chosen) Object.assign(row, { status, updated_at: nowIso() });
    return chosen.length;
  }

  async untranslatedIds(projectId: number, lang: string): Promise<number[]> {
    const translated = new Set(
      this.tables.translations.filter((row) => row.lang === lang).map((row) => row.phrase_id),
    );
    return this.ofProject(projectId)
      .filter((row) => row.status === 'approved' && !translated.has(row.id))
      .map((row) => row.id)
      .sort((a, b) => a - b);
  }

  async delete(projectId: number, ids: number[]): Promise<number> {
    return this.tables.deletePhrases(this.among(projectId, ids).map((row) => row.id)).phrases;
  }

  async clearPending(projectId: number): Promise<number> {
    const pending = this.ofProject(projectId).filter((row) => row.status === 'pending');
    return this.tables.deletePhrases(pending.map((row) => row.id)).phrases;
  }

  async get(projectId: number, id: number) {
    const row = this.ofProject(projectId).find((candidate) => candidate.id === id);
    return (
      row && { id: row.id, key: row.key, context: row.context, status: row.status, var_slots: row.var_slots }
    );
  }

  async update(projectId: number, id: number, values: Updateable<PhrasesTable>): Promise<void> {
    const row = this.ofProject(projectId).find((candidate) => candidate.id === id);
    if (!row) return;
    if (
      values.key_hash !== undefined &&
      this.ofProject(projectId).some((other) => other.id !== id && other.key_hash === values.key_hash)
    )
      throw duplicateKeyHash();
    Object.assign(row, values);
  }

  async existing(projectId: number, ids: number[]): Promise<number[]> {
    return this.among(projectId, ids).map((row) => row.id);
  }

  ofProject(projectId: number): PhraseRow[] {
    return this.tables.phrases.filter((row) => row.project_id === projectId);
  }

  private among(projectId: number, ids: number[]): PhraseRow[] {
    const wanted = new Set(ids);
    return this.ofProject(projectId).filter((row) => wanted.has(row.id));
  }

  private roomForPage(projectId: number, url: string, maxUrls: number): boolean {
    const pages = this.pagesOf(projectId);
    return pages.has(url) || pages.size < maxUrls;
  }
}

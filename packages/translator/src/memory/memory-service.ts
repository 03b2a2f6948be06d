import type { TranslationState } from '../db/schema.ts';
import type { ChangeFeed } from '../changes.ts';
import { TrigramIndex } from './trigram-index.ts';
import { matchScore } from './match-score.ts';
import type { MemoryRepository } from './memory-repository.ts';

/** A remembered translation offered for a text, with how close its source is (100 = the same text). */
export interface MemoryMatch {
  source: string;
  value: string;
  state: TranslationState;
  score: number;
  /** From another project that shares its memory. */
  shared: boolean;
  updatedAt: string;
}

/** The projects whose memory a project draws on (itself, or every project sharing when it shares). */
export interface MemoryScope {
  memoryScope(projectId: number): Promise<number[]>;
}

/** Scores below this are not offered: the edit would be more work than translating anew. */
const MIN_SCORE = 60;
/** Trigram similarity a candidate needs before its score is worked out. */
const CANDIDATE_SIMILARITY = 0.3;
/** Entries added in one refresh past which the index gives back the room its lists grew into. */
const COMPACT_AFTER = 1000;
const STATE_RANK: Record<TranslationState, number> = { reviewed: 2, human: 1, machine: 0 };

interface IndexState {
  index: TrigramIndex;
  lastId: number;
  /** The refresh in progress: refreshes of one index run one after the other. */
  ready: Promise<void>;
}

type Entry = Awaited<ReturnType<MemoryRepository['exact']>>[number];

/**
 * The translation memory: exact matches for pre-translation, and fuzzy matches with a score for people.
 * Fuzzy lookups use an in-memory trigram index per project and language, built on first use and brought
 * up to date before each lookup with the entries added since (one indexed query, by any process). A
 * change of a project's keys or settings (also after a restore) or a gap in hearing other processes drops
 * the project's indexes.
 */
export class TranslationMemoryService {
  private readonly indexes = new Map<number, Map<string, IndexState>>();

  constructor(
    private readonly repository: MemoryRepository,
    private readonly scope: MemoryScope,
    changes: ChangeFeed,
  ) {
    changes.on('keys', (projectId) => {
      if (projectId === undefined) this.indexes.clear();
      else this.indexes.delete(projectId);
    });
  }

  /** The best `limit` matches for `text` in `lang`, best first. */
  async suggest(projectId: number, lang: string, text: string, limit = 5): Promise<MemoryMatch[]> {
    const candidates = [];
    for (const id of await this.scope.memoryScope(projectId)) {
      candidates.push(...(await this.index(id, lang)).search(text, limit * 4, CANDIDATE_SIMILARITY));
    }
    candidates.sort((a, b) => b.similarity - a.similarity);
    const rows = await this.repository.byIds(candidates.slice(0, limit * 4).map((candidate) => candidate.id));
    return rows
      .map((row) => ({ ...this.toMatch(projectId, row), score: matchScore(text, row.source) }))
      .filter((match) => match.score >= MIN_SCORE)
      .sort(
        (a, b) =>
          b.score - a.score ||
          STATE_RANK[b.state] - STATE_RANK[a.state] ||
          b.updatedAt.localeCompare(a.updatedAt),
      )
      .slice(0, limit);
  }

  /** The remembered translation of each of `sources` that has one: the project's own first, reviewed first. */
  async exact(projectId: number, lang: string, sources: string[]): Promise<Map<string, MemoryMatch>> {
    const rows = await this.repository.exact(await this.scope.memoryScope(projectId), lang, sources);
    const rank = (row: Entry) => [
      row.project_id === projectId ? 1 : 0,
      STATE_RANK[row.state],
      row.updated_at,
    ];
    const best = new Map<string, Entry>();
    for (const row of rows) {
      const held = best.get(row.source);
      if (!held || compare(rank(row), rank(held)) > 0) best.set(row.source, row);
    }
    return new Map(
      [...best].map(([source, row]) => [source, { ...this.toMatch(projectId, row), score: 100 }]),
    );
  }

  private toMatch(projectId: number, row: Entry): Omit<MemoryMatch, 'score'> {
    return {
      source: row.source,
      value: row.value,
      state: row.state,
      shared: row.project_id !== projectId,
      updatedAt: row.updated_at,
    };
  }

  /** The index of one project and language, with every entry added so far. */
  private async index(projectId: number, lang: string): Promise<TrigramIndex> {
    let byLang = this.indexes.get(projectId);
    if (!byLang) this.indexes.set(projectId, (byLang = new Map()));
    let state = byLang.get(lang);
    if (!state)
      byLang.set(lang, (state = { index: new TrigramIndex(), lastId: 0, ready: Promise.resolve() }));
    const held = state;
    const refresh = held.ready.then(async () => {
      const rows = await this.repository.sourcesAfter(projectId, lang, held.lastId);
      for (const row of rows) {
        held.index.add(row.id, row.source);
        held.lastId = row.id;
      }
      if (rows.length >= COMPACT_AFTER) held.index.compact();
    });
    held.ready = refresh.catch(() => undefined);
    await refresh;
    return held.index;
  }
}

/** Compares two rank tuples element by element. */
function compare(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]!) return -1;
    if (a[i]! > b[i]!) return 1;
  }
  return 0;
}

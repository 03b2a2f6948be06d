import { trigrams } from './trigrams.ts';
import { IntList } from './int-list.ts';

export interface Candidate {
  id: number;
  /** Shared trigrams ÷ trigrams of either text (pg_trgm's `similarity`). */
  similarity: number;
}

/**
 * An in-memory inverted index from trigrams to the texts that have them, for fuzzy lookups: a search
 * counts, per text, the trigrams it shares with the query, walking only the query's posting lists.
 * Texts are only ever added (the memory's source texts never change; a deleted one is skipped by the
 * caller, which reads the rows it is given back).
 */
export class TrigramIndex {
  private readonly postings = new Map<string, IntList>();
  private readonly ids = new IntList(1024);
  private readonly sizes = new IntList(1024);
  private counts = new Uint16Array(0);

  get size() {
    return this.ids.length;
  }

  add(id: number, text: string) {
    const doc = this.ids.length;
    const grams = trigrams(text);
    this.ids.push(id);
    this.sizes.push(grams.length);
    for (const gram of grams) {
      let list = this.postings.get(gram);
      if (!list) this.postings.set(gram, (list = new IntList(2)));
      list.push(doc);
    }
  }

  /** Gives back the room the lists grew into (after adding many texts at once). */
  compact() {
    for (const list of this.postings.values()) list.trim();
    this.ids.trim();
    this.sizes.trim();
  }

  /** The `limit` texts most similar to `text`, at least `threshold` similar, best first. */
  search(text: string, limit: number, threshold: number): Candidate[] {
    const query = trigrams(text);
    if (!query.length) return [];
    if (this.counts.length < this.ids.length) this.counts = new Uint16Array(this.ids.length * 2);
    const counts = this.counts;
    const touched: number[] = [];
    for (const gram of query) {
      const list = this.postings.get(gram);
      if (!list) continue;
      for (let i = 0; i < list.length; i++) {
        const doc = list.at(i);
        const seen = counts[doc]!;
        counts[doc] = seen + 1;
        if (seen === 0) touched.push(doc);
      }
    }
    const found: Candidate[] = [];
    for (const doc of touched) {
      const shared = counts[doc]!;
      counts[doc] = 0;
      const similarity = shared / (query.length + this.sizes.at(doc) - shared);
      if (similarity >= threshold) found.push({ id: this.ids.at(doc), similarity });
    }
    return found.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
  }
}

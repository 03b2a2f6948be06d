import { describe, expect, it } from 'vitest';
import { trigrams } from './trigrams.ts';
import { matchScore } from './match-score.ts';
import { TrigramIndex } from './trigram-index.ts';
import { IntList } from './int-list.ts';

describe('trigrams', () => {
  it("counts words as pg_trgm does: lower case, padded, punctuation and slots' braces dropped", () => {
    expect(trigrams('Cat!').sort()).toEqual(['  c', ' ca', 'at ', 'cat'].sort());
    expect(trigrams('a {{number:0}}')).toEqual([
      '  a',
      ' a ',
      '  n',
      ' nu',
      'num',
      'umb',
      'mbe',
      'ber',
      'er ',
      '  0',
      ' 0 ',
    ]);
    expect(trigrams('Größe Größe')).toEqual(['  g', ' gr', 'grö', 'röß', 'öße', 'ße ']);
    expect(trigrams('…!')).toEqual([]);
  });
});

describe('matchScore', () => {
  it('is 100 only for the same text, and falls with each edit', () => {
    expect(matchScore('Add to cart', 'Add to cart')).toBe(100);
    expect(matchScore('add to cart', 'Add to cart')).toBe(90);
    expect(matchScore('Add to carts', 'Add to cart')).toBe(91);
    expect(matchScore('Opening hours', 'Add to cart')).toBeLessThan(30);
    // Code points, not UTF-16 units: one emoji is one edit.
    expect(matchScore('Hi 👋', 'Hi 🙂')).toBe(75);
  });
});

describe('TrigramIndex', () => {
  it('finds the texts sharing most trigrams, best first, above the threshold', () => {
    const index = new TrigramIndex();
    index.add(1, 'Add to cart');
    index.add(2, 'Add to basket');
    index.add(3, 'Opening hours');
    index.add(4, 'Add two items to cart');
    const found = index.search('Add to cart', 10, 0.3);
    expect(found.map((candidate) => candidate.id)).toEqual([1, 4, 2]);
    expect(found[0]!.similarity).toBe(1);
    expect(index.search('Add to cart', 1, 0.3)).toHaveLength(1);
    expect(index.search('Opening times', 10, 0.3).map((candidate) => candidate.id)).toEqual([3]);
    expect(index.search('zzz', 10, 0.1)).toEqual([]);
    // Counters are reset between searches, and compacting keeps every entry.
    expect(index.search('Add to cart', 10, 0.3)).toEqual(found);
    index.compact();
    expect(index.search('Add to cart', 10, 0.3)).toEqual(found);
    index.add(5, 'Add to cart now');
    expect(index.search('Add to cart', 10, 0.3).map((candidate) => candidate.id)).toEqual([1, 5, 4, 2]);
    expect(index.size).toBe(5);
  });
});

describe('IntList', () => {
  it('grows past its capacity and keeps its items when trimmed', () => {
    const list = new IntList(2);
    for (let i = 0; i < 100; i++) list.push(i * 7);
    list.trim();
    expect(list.length).toBe(100);
    expect([list.at(0), list.at(50), list.at(99)]).toEqual([0, 350, 693]);
    list.push(-5);
    expect(list.at(100)).toBe(-5);
  });
});

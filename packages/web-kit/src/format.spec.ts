import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate } from './format.ts';

describe('formatBytes', () => {
  it('writes sizes in binary units, one decimal below 10', () => {
    expect([0, 1023, 1024, 1536, 10 * 1024, 5.5 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '1.5 KiB',
      '10 KiB',
      '5.5 GiB',
    ]);
  });

  it('writes a dash for no size', () => {
    expect([null, undefined, Number.NaN].map(formatBytes)).toEqual(['—', '—', '—']);
  });
});

describe('formatDate', () => {
  it('writes a dash for none and keeps text that is no date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('soon')).toBe('soon');
    expect(formatDate('2026-11-28T10:00:00Z')).toBe(new Date('2026-11-28T10:00:00Z').toLocaleString());
  });
});

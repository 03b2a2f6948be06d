import { describe, expect, it } from 'vitest';
import { MAX_REDIRECT_LENGTH, safeRedirect } from './safe-redirect.ts';
import { HOSTILE_REDIRECTS } from './testing/hostile-redirects.ts';

describe('safeRedirect', () => {
  it.each(HOSTILE_REDIRECTS.map((target) => [JSON.stringify(target).slice(0, 40), target]))(
    'sends %s home',
    (_name, target) => {
      expect(safeRedirect(target)).toBe('/');
    },
  );

  it('keeps a path on this site with its query and fragment', () => {
    expect(safeRedirect('/review?status=pending#top')).toBe('/review?status=pending#top');
    expect(safeRedirect('/analytics/url?url=https%3A%2F%2Fshop.example%2F')).toBe(
      '/analytics/url?url=https%3A%2F%2Fshop.example%2F',
    );
    expect(safeRedirect('/a/../b')).toBe('/b');
  });

  it('sends home when there is no target or it is malformed', () => {
    expect(safeRedirect(undefined)).toBe('/');
    expect(safeRedirect('')).toBe('/');
    expect(safeRedirect('/%E0%A4%A')).toBe('/');
    expect(safeRedirect(`/${'x'.repeat(MAX_REDIRECT_LENGTH)}`)).toBe('/');
  });
});

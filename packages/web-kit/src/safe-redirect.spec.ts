import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect.ts';

const ORIGIN = 'https://dashboard.example';

describe('safeRedirect (browser)', () => {
  it('keeps a path of this app', () => {
    expect(safeRedirect('/review?lang=fr#top', ORIGIN)).toBe('/review?lang=fr#top');
  });

  it('sends anything leading elsewhere home', () => {
    for (const target of ['/\t/evil.example', '/\\evil.example', '//evil.example', '/%2F/evil.example'])
      expect(safeRedirect(target, ORIGIN), JSON.stringify(target)).toBe('/');
    for (const target of ['https://evil.example/', 'javascript:alert(1)', '/%E0%A4%A', null])
      expect(safeRedirect(target, ORIGIN), JSON.stringify(target)).toBe('/');
  });
});

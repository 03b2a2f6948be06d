// One outbound policy for every connection the services and the site agent open: each place in
// packages/*/src that opens one is declared in outbound-inventory.ts with the reason it may (through the
// policy, an administrator's destination, the database, …). A new call site fails here until it is
// declared; a declared one that is gone fails too, so the list stays true.
import { describe, expect, it } from 'vitest';
import { INVENTORY } from './outbound-inventory.ts';
import { outboundSites } from './outbound-sites.ts';

describe('outbound connections', () => {
  const found = outboundSites();

  it('every place that opens a connection is declared, with the kinds of call it makes', () => {
    // `file: kinds` for each call site, or kind of call in a known file, that outbound-inventory.ts lacks.
    const undeclared = Object.entries(found).flatMap(([file, kinds]) => {
      const declared = INVENTORY[file]?.kinds ?? [];
      const added = kinds.filter((kind) => !declared.includes(kind));
      return added.length ? [`${file}: ${added.join(', ')}`] : [];
    });
    expect(undeclared, 'declare each in scripts/test/outbound-inventory.ts, with why it may').toEqual([]);
  });

  it('every declared place still opens what it is declared for', () => {
    const gone = Object.entries(INVENTORY).flatMap(([file, site]) => {
      const kinds = found[file] ?? [];
      const missing = site.kinds.filter((kind) => !kinds.includes(kind));
      return missing.length ? [`${file}: ${missing.join(', ')} no longer found`] : [];
    });
    expect(gone, 'drop or correct these in scripts/test/outbound-inventory.ts').toEqual([]);
  });

  it('every declaration names the calls it covers and says why', () => {
    for (const [file, site] of Object.entries(INVENTORY)) {
      expect(site.kinds.length, file).toBeGreaterThan(0);
      expect(site.why, file).toMatch(/\w{3}/);
    }
  });
});

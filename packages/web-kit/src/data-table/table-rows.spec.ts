import { describe, expect, it } from 'vitest';
import { tableRows, type RowRules, type TableView } from './table-rows.ts';

interface Row {
  name: string;
  status: string;
  seen: string | null;
}

const rules: RowRules<Row> = {
  searchText: (row) => row.name,
  filterValue: { status: (row) => row.status },
  sortValue: { name: (row) => row.name, seen: (row) => row.seen },
};

const view = (overrides: Partial<TableView> = {}): TableView => ({
  search: '',
  filters: {},
  sort: null,
  page: 1,
  pageSize: 10,
  ...overrides,
});

const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({
  name: `web${i + 1}`,
  status: i % 5 === 0 ? 'failed' : 'running',
  seen: i % 2 ? `2026-01-${String(i + 1).padStart(2, '0')}` : null,
}));

describe('tableRows', () => {
  it('keeps rows containing the search in any case, and those the select filters name', () => {
    expect(tableRows(rows, rules, view({ search: 'EB2' })).matching.map((r) => r.name)).toEqual([
      'web2',
      'web20',
      'web21',
      'web22',
      'web23',
      'web24',
      'web25',
    ]);
    const failed = tableRows(rows, rules, view({ search: 'web1', filters: { status: 'failed' } }));
    expect(failed.matching.map((r) => r.name)).toEqual(['web1', 'web11', 'web16']);
  });

  it('ignores a filter no rule knows (an address can say anything)', () => {
    expect(tableRows(rows, rules, view({ filters: { colour: 'red' } })).matching).toHaveLength(25);
  });

  it('sorts numbers inside text naturally, both ways', () => {
    const up = tableRows(rows, rules, view({ sort: { key: 'name', direction: 'ascending' } }));
    expect(up.page.slice(0, 3).map((r) => r.name)).toEqual(['web1', 'web2', 'web3']);
    const down = tableRows(rows, rules, view({ sort: { key: 'name', direction: 'descending' } }));
    expect(down.page.slice(0, 2).map((r) => r.name)).toEqual(['web25', 'web24']);
  });

  it('puts empty values last whichever the direction', () => {
    for (const direction of ['ascending', 'descending'] as const) {
      const sorted = tableRows(rows, rules, view({ sort: { key: 'seen', direction }, pageSize: 100 }));
      expect(sorted.matching.at(-1)!.seen).toBeNull();
      expect(sorted.matching[0]!.seen).toBe(direction === 'ascending' ? '2026-01-02' : '2026-01-24');
    }
  });

  it('cuts the page and keeps a page beyond the end on the last one', () => {
    const third = tableRows(rows, rules, view({ page: 3 }));
    expect(third.pageCount).toBe(3);
    expect(third.page.map((r) => r.name)).toEqual(['web21', 'web22', 'web23', 'web24', 'web25']);
    const beyond = tableRows(rows, rules, view({ page: 9 }));
    expect(beyond.pageNumber).toBe(3);
    expect(tableRows([], rules, view()).pageCount).toBe(1);
  });
});

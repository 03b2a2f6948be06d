/** What a list shows: its text filter, select filters, sort and page. */
export interface TableView {
  /** Rows whose searchable text contains this (any case). */
  search: string;
  /** Select filter values by filter key; an absent key filters nothing. */
  filters: Record<string, string>;
  sort: { key: string; direction: 'ascending' | 'descending' } | null;
  /** Counted from 1. */
  page: number;
  pageSize: number;
}

export type SortValue = string | number | null | undefined;

export interface RowRules<T> {
  searchText: (row: T) => string;
  /** The value a select filter compares, by filter key. */
  filterValue: Record<string, (row: T) => string>;
  /** The value a sortable column orders by, by column key. */
  sortValue: Record<string, (row: T) => SortValue>;
}

export interface TableRows<T> {
  /** The rows of the current page. */
  page: T[];
  /** Every row the filters keep, sorted. */
  matching: T[];
  /** The page shown, within the pages there are. */
  pageNumber: number;
  pageCount: number;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Empty values sort last in both directions: a list sorted by "last access" starts with real dates. */
function compare(a: SortValue, b: SortValue, sign: 1 | -1): number {
  const aEmpty = a === null || a === undefined || a === '';
  const bEmpty = b === null || b === undefined || b === '';
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  return sign * collator.compare(String(a), String(b));
}

/** The rows a view shows: filtered, then sorted (stable), then cut to its page. */
export function tableRows<T>(rows: readonly T[], rules: RowRules<T>, view: TableView): TableRows<T> {
  const needle = view.search.trim().toLowerCase();
  const filters = Object.entries(view.filters).filter(([key]) => rules.filterValue[key]);
  let matching = rows.filter(
    (row) =>
      (!needle || rules.searchText(row).toLowerCase().includes(needle)) &&
      filters.every(([key, value]) => rules.filterValue[key]!(row) === value),
  );
  const sortBy = view.sort ? rules.sortValue[view.sort.key] : undefined;
  if (view.sort && sortBy) {
    const sign = view.sort.direction === 'ascending' ? 1 : -1;
    const keyed = matching.map((row) => ({ row, value: sortBy(row) }));
    keyed.sort((a, b) => compare(a.value, b.value, sign));
    matching = keyed.map((item) => item.row);
  }
  const pageCount = Math.max(1, Math.ceil(matching.length / view.pageSize));
  const pageNumber = Math.min(Math.max(1, view.page), pageCount);
  const start = (pageNumber - 1) * view.pageSize;
  return { page: matching.slice(start, start + view.pageSize), matching, pageNumber, pageCount };
}

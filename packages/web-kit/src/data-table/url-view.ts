import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TableView } from './table-rows.ts';

export const PAGE_SIZES = [25, 50, 100] as const;

export interface ViewDefaults {
  /** The select filters' keys, each read from the query parameter of that name. */
  filterKeys: readonly string[];
  /** The sort when the address names none, as written there: `name`, or `-name` for descending. */
  sort?: string;
  pageSize?: number;
}

/** A sort in the address: `name` ascending, `-name` descending. */
function sortOf(text: string | null): TableView['sort'] {
  if (!text) return null;
  return text.startsWith('-')
    ? { key: text.slice(1), direction: 'descending' }
    : { key: text, direction: 'ascending' };
}

function positive(text: string | null, fallback: number): number {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * A list's view kept in the address query (`q`, `sort`, `page`, `size` and one parameter per select
 * filter), so a filtered list can be shared and reloaded. A change of filter or sort goes back to page 1.
 */
export function useUrlView(defaults: ViewDefaults): [TableView, (change: Partial<TableView>) => void] {
  const [params, setParams] = useSearchParams();
  const defaultSize = defaults.pageSize ?? PAGE_SIZES[0];
  const fallbackSort = defaults.sort ?? null;
  const filterKeys = defaults.filterKeys.join(',');
  const view = useMemo<TableView>(
    () => ({
      search: params.get('q') ?? '',
      filters: Object.fromEntries(
        filterKeys
          .split(',')
          .filter(Boolean)
          .flatMap((key) => (params.get(key) ? [[key, params.get(key)!]] : [])),
      ),
      sort: sortOf(params.get('sort') ?? fallbackSort),
      page: positive(params.get('page'), 1),
      pageSize: positive(params.get('size'), defaultSize),
    }),
    [params, filterKeys, fallbackSort, defaultSize],
  );
  const update = useCallback(
    (change: Partial<TableView>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const put = (name: string, value: string | null) =>
            value ? next.set(name, value) : next.delete(name);
          if (change.search !== undefined) put('q', change.search);
          if (change.filters)
            for (const key of filterKeys.split(',').filter(Boolean)) put(key, change.filters[key] ?? null);
          if (change.sort !== undefined) {
            const text =
              change.sort && `${change.sort.direction === 'descending' ? '-' : ''}${change.sort.key}`;
            put('sort', text === fallbackSort ? null : text);
          }
          if (change.pageSize !== undefined)
            put('size', change.pageSize === defaultSize ? null : String(change.pageSize));
          const page = change.page ?? 1;
          put('page', page > 1 ? String(page) : null);
          return next;
        },
        { replace: true },
      ),
    [setParams, filterKeys, defaultSize, fallbackSort],
  );
  return [view, update];
}

/** A list's view kept in the page alone: for a list that shares its page with another one. */
export function useLocalView(
  sort: TableView['sort'] = null,
): [TableView, (change: Partial<TableView>) => void] {
  const [view, setView] = useState<TableView>({
    search: '',
    filters: {},
    sort,
    page: 1,
    pageSize: PAGE_SIZES[0],
  });
  const update = useCallback(
    (change: Partial<TableView>) => setView((current) => ({ ...current, page: 1, ...change })),
    [],
  );
  return [view, update];
}

import {
  Checkbox,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { useMemo, useState, type ReactNode } from 'react';
import { tableRows, type SortValue, type TableView } from './table-rows.ts';
import { PAGE_SIZES } from './url-view.ts';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: T) => SortValue;
  /**
   * On a phone every row is a card: the `title` column heads it, `hidden` columns are left out, a `wide`
   * column (an editor) has its label above it and the card's whole width.
   */
  phone?: 'title' | 'hidden' | 'wide';
  /** `end` for figures, so their digits line up. */
  align?: 'start' | 'end';
}

export interface SelectFilter<T> {
  key: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  value: (row: T) => string;
}

export interface DataTableProps<T> {
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  columns: Array<Column<T>>;
  /** The text the substring filter looks in; without it the list has no filter field. */
  searchText?: (row: T) => string;
  searchLabel?: string;
  filters?: Array<SelectFilter<T>>;
  /**
   * What the list shows (filter, sort, page). Without it the rows are shown as they come — one page a
   * server filtered and cut, whose page says the count and pages — with no filter, sort or pages here.
   */
  view?: TableView;
  onViewChange?: (change: Partial<TableView>) => void;
  /** Shown instead of the table when no row matches the filters. */
  noMatch?: ReactNode;
  /**
   * With it rows can be selected; it renders the actions on the selected rows that match the filters
   * (none selected too: the actions stay in place, disabled).
   */
  bulkActions?: (selected: T[], clear: () => void) => ReactNode;
  /**
   * Selection kept by the page (e.g. across a server's pages, with actions of its own), instead of the
   * table's own for `bulkActions`.
   */
  selection?: {
    selected: ReadonlySet<string | number>;
    onChange: (selected: ReadonlySet<string | number>) => void;
  };
  /** What a row's selection box is called (default: its key). */
  rowLabel?: (row: T) => string;
  /** Rows that need attention (e.g. an agent gone silent) are tinted red. */
  rowAlert?: (row: T) => boolean;
  /** Attributes of each row's element (e.g. a data-* naming it for tests). */
  rowAttributes?: (row: T) => Record<string, string>;
  'data-testid'?: string;
}

const count = (n: number) => n.toLocaleString('en');
const cardStyle = {
  display: 'block',
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 'var(--mantine-radius-sm)',
  padding: 'var(--mantine-spacing-sm)',
  marginBottom: 'var(--mantine-spacing-xs)',
};
const PHONE = '(max-width: 48em)';
/** Figures in an `end` column take digits of one width, so they line up. */
const numeric = (align: Column<never>['align']) => (align === 'end' ? 'tabular-nums' : undefined);

/**
 * A list of rows with a substring filter, select filters, sortable columns, a count, pages and
 * optional selection for bulk actions.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { rows, rowKey, columns, view } = props;
  const onViewChange = (change: Partial<TableView>) => props.onViewChange?.(change);
  const phone = useMediaQuery(PHONE) ?? false;
  const [search, setSearch] = useState(view?.search ?? '');
  const applySearch = useDebouncedCallback((text: string) => onViewChange({ search: text }), 200);
  const [ownSelection, setOwnSelection] = useState<ReadonlySet<string | number>>(new Set());
  const selected = props.selection?.selected ?? ownSelection;
  const setSelected = props.selection?.onChange ?? setOwnSelection;
  const selectable = Boolean(props.bulkActions ?? props.selection);

  const rules = useMemo(
    () => ({
      searchText: props.searchText ?? (() => ''),
      filterValue: Object.fromEntries((props.filters ?? []).map((f) => [f.key, f.value])),
      sortValue: Object.fromEntries(columns.flatMap((c) => (c.sortValue ? [[c.key, c.sortValue]] : []))),
    }),
    [props.searchText, props.filters, columns],
  );
  const shown = useMemo(
    () =>
      view
        ? tableRows(rows, rules, view)
        : { page: [...rows], matching: [...rows], pageNumber: 1, pageCount: 1 },
    [rows, rules, view],
  );
  const selectedRows = props.bulkActions ? shown.matching.filter((row) => selected.has(rowKey(row))) : [];
  const pageKeys = shown.page.map(rowKey);
  const pageChecked = pageKeys.filter((key) => selected.has(key)).length;

  const toggle = (keys: Array<string | number>, on: boolean) => {
    const next = new Set(selected);
    for (const key of keys)
      if (on) next.add(key);
      else next.delete(key);
    setSelected(next);
  };
  const sortBy = (key: string) =>
    onViewChange({
      sort: {
        key,
        direction:
          view?.sort?.key === key && view.sort.direction === 'ascending' ? 'descending' : 'ascending',
      },
    });
  const selectBox = (row: T) => {
    const key = rowKey(row);
    return (
      <Checkbox
        aria-label={`Select ${props.rowLabel?.(row) ?? String(key)}`}
        checked={selected.has(key)}
        onChange={(event) => toggle([key], event.currentTarget.checked)}
      />
    );
  };

  const tint = (row: T) => (props.rowAlert?.(row) ? 'var(--mantine-color-red-light)' : undefined);
  /** Selects or clears the rows of this page; on a phone it stands above the cards, labelled. */
  const pageBox = (label?: string) => (
    <Checkbox
      label={label}
      aria-label={label ? undefined : 'Select the rows of this page'}
      checked={pageKeys.length > 0 && pageChecked === pageKeys.length}
      indeterminate={pageChecked > 0 && pageChecked < pageKeys.length}
      onChange={(event) => toggle(pageKeys, event.currentTarget.checked)}
    />
  );

  const title = columns.find((c) => c.phone === 'title') ?? columns[0]!;
  // On a phone each row is a card (a label beside each value) inside the same table, so no column
  // hides off-screen and the rows keep their place in the document.
  const body = phone ? (
    <>
      {selectable ? pageBox('Select the rows of this page') : null}
      <Table style={{ display: 'block' }}>
        <Table.Tbody style={{ display: 'block' }}>
          {shown.page.map((row) => (
            <Table.Tr
              key={rowKey(row)}
              style={{ ...cardStyle, background: tint(row) }}
              {...props.rowAttributes?.(row)}
            >
              <Table.Td style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '0 0 4px' }}>
                {selectable ? selectBox(row) : null}
                <Text fw={600} component="span">
                  {title.cell(row)}
                </Text>
              </Table.Td>
              {columns
                .filter((c) => c !== title && c.phone !== 'hidden')
                .map((c) => (
                  <Table.Td
                    key={c.key}
                    style={{
                      display: 'flex',
                      flexDirection: c.phone === 'wide' ? 'column' : 'row',
                      gap: c.phone === 'wide' ? 2 : 8,
                      padding: '2px 0',
                      border: 0,
                    }}
                  >
                    <Text size="sm" c="dimmed" miw={96} component="span">
                      {c.header}
                    </Text>
                    <div style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{c.cell(row)}</div>
                  </Table.Td>
                ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  ) : (
    <Table striped highlightOnHover verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          {selectable ? <Table.Th w={40}>{pageBox()}</Table.Th> : null}
          {columns.map((c) => {
            const sortable = Boolean(view && c.sortValue);
            const sorted = view?.sort?.key === c.key ? view.sort.direction : undefined;
            return (
              <Table.Th
                key={c.key}
                aria-sort={sortable ? (sorted ?? 'none') : undefined}
                style={{ textAlign: c.align }}
              >
                {sortable ? (
                  <UnstyledButton onClick={() => sortBy(c.key)} fw={700} fz="sm">
                    {c.header}
                    <span aria-hidden="true">
                      {sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ' ↕'}
                    </span>
                  </UnstyledButton>
                ) : (
                  c.header
                )}
              </Table.Th>
            );
          })}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {shown.page.map((row) => (
          <Table.Tr key={rowKey(row)} bg={tint(row)} {...props.rowAttributes?.(row)}>
            {selectable ? <Table.Td>{selectBox(row)}</Table.Td> : null}
            {columns.map((c) => (
              <Table.Td key={c.key} style={{ textAlign: c.align, fontVariantNumeric: numeric(c.align) }}>
                {c.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );

  if (!view) return <div data-testid={props['data-testid']}>{body}</div>;

  return (
    <Stack gap="sm" data-testid={props['data-testid']}>
      <Group align="flex-end" wrap="wrap" gap="sm">
        {props.searchText ? (
          <TextInput
            label={props.searchLabel ?? 'Filter'}
            placeholder="Part of a name"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            style={{ flex: '1 1 180px' }}
          />
        ) : null}
        {(props.filters ?? []).map((f) => (
          <Select
            key={f.key}
            label={f.label}
            placeholder="All"
            clearable
            data={f.options}
            value={view.filters[f.key] ?? null}
            onChange={(value) => onViewChange({ filters: { ...view.filters, [f.key]: value ?? '' } })}
            style={{ flex: '1 1 160px' }}
          />
        ))}
      </Group>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" aria-live="polite" data-testid="row-count">
          {count(shown.matching.length)} of {count(rows.length)}
          {selectedRows.length ? ` · ${count(selectedRows.length)} selected` : ''}
        </Text>
        {props.bulkActions ? (
          <Group gap="xs">{props.bulkActions(selectedRows, () => setSelected(new Set()))}</Group>
        ) : null}
      </Group>
      {shown.matching.length === 0
        ? (props.noMatch ?? <Text c="dimmed">No row matches these filters.</Text>)
        : body}
      {rows.length > PAGE_SIZES[0] ? (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Pagination
            total={shown.pageCount}
            value={shown.pageNumber}
            onChange={(page) => onViewChange({ page })}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
          <Select
            label="Rows per page"
            data={PAGE_SIZES.map(String)}
            value={String(view.pageSize)}
            onChange={(value) => value && onViewChange({ pageSize: Number(value) })}
            allowDeselect={false}
            w={120}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

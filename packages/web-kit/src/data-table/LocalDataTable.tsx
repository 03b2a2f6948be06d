import { DataTable, type DataTableProps } from './DataTable.tsx';
import type { TableView } from './table-rows.ts';
import { useLocalView } from './url-view.ts';

export type LocalDataTableProps<T> = Omit<DataTableProps<T>, 'view' | 'onViewChange'> & {
  /** The sort the list starts with. */
  sort?: TableView['sort'];
};

/** A DataTable whose view (filter, sort, page) is kept in the page alone (see useLocalView). */
export function LocalDataTable<T>({ sort, ...props }: LocalDataTableProps<T>) {
  const [view, changeView] = useLocalView(sort);
  return <DataTable {...props} view={view} onViewChange={changeView} />;
}

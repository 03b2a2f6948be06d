import { type Column, DataTable, type DataTableProps, Modal } from '@app/web-kit';
import { Button, type ModalProps } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { EditDeleteActions, PageHeader, QueryState } from './common.tsx';

export interface CrudPageProps<T> {
  title: string;
  /** The label of the button that opens the form for a new row, e.g. "New site". */
  newLabel: string;
  /** The title of that form's dialog, e.g. "New external domain". */
  newTitle: string;
  query: UseQueryResult<T[]>;
  /** Shown instead of the table while there is no row. */
  empty: ReactNode;
  /** The table's columns; the Edit and Delete buttons come after them. */
  columns: Array<Column<T>>;
  table: Omit<DataTableProps<T>, 'rows' | 'columns'>;
  nameOf: (row: T) => string;
  /** What deleting a row does, said in the confirmation. */
  deleteMessage: ReactNode;
  onDelete: (row: T) => Promise<unknown>;
  /** The form for a new row (null) or for editing one; `done` closes the dialog. */
  form: (row: T | null, done: () => void) => ReactNode;
  dialogSize?: ModalProps['size'];
}

/**
 * An administrator's list of things: a New button, the table with Edit and Delete on each row, and the
 * form in a dialog for a new row or the one being edited.
 */
export function CrudPage<T>(props: CrudPageProps<T>) {
  const [editing, setEditing] = useState<{ row: T | null } | null>(null);
  const close = () => setEditing(null);
  const columns: Array<Column<T>> = [
    ...props.columns,
    {
      key: 'actions',
      header: 'Actions',
      cell: (row) => (
        <EditDeleteActions
          name={props.nameOf(row)}
          message={props.deleteMessage}
          onEdit={() => setEditing({ row })}
          onDelete={() => props.onDelete(row)}
        />
      ),
    },
  ];
  return (
    <>
      <PageHeader title={props.title}>
        <Button onClick={() => setEditing({ row: null })}>{props.newLabel}</Button>
      </PageHeader>
      <QueryState query={props.query} empty={props.empty}>
        {(list) => <DataTable {...props.table} rows={list} columns={columns} />}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={close}
        title={editing?.row ? `Edit ${props.nameOf(editing.row)}` : props.newTitle}
        size={props.dialogSize}
      >
        {editing ? props.form(editing.row, close) : null}
      </Modal>
    </>
  );
}

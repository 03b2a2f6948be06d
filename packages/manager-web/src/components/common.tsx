import { Busy, ConfirmButton } from '@app/web-kit';
import { Badge, Button, Center, Group, Title } from '@mantine/core';
import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState, ErrorState } from './basics.tsx';

// Shared by both web clients; re-exported where this app's pages look for them.
export { formatBytes, formatDate } from '@app/web-kit';

// The shell (Layout, routes) imports basics.tsx only, so this module and what it pulls in (Modal, …) stay
// out of the first load.
export { EmptyState, ErrorState };

/** A form's submit button, and Cancel going back to `cancelTo`. */
export function SubmitOrCancel({
  label,
  loading,
  cancelTo,
  children,
}: {
  label: string;
  loading: boolean;
  cancelTo: string;
  /** Shown beside the buttons: what keeps the form from submitting. */
  children?: ReactNode;
}) {
  return (
    <Group align="flex-start">
      <Button type="submit" loading={loading}>
        {label}
      </Button>
      <Button variant="default" component={Link} to={cancelTo}>
        Cancel
      </Button>
      {children}
    </Group>
  );
}

export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
      <Title order={2}>{title}</Title>
      {children ? <Group gap="xs">{children}</Group> : null}
    </Group>
  );
}

/** Loading, error and empty states around a query; `children` renders the data. */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T> | UseInfiniteQueryResult<T>;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <Center py="xl">
        <Busy label="Loading" />
      </Center>
    );
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  const data = query.data;
  const blank = isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0;
  if (blank && empty) return <>{empty}</>;
  return <>{children(data)}</>;
}

const STATUS_COLORS: Record<string, string> = {
  running: 'green',
  active: 'green',
  success: 'green',
  approved: 'green',
  offline: 'gray',
  closed: 'gray',
  cancelled: 'gray',
  creating: 'blue',
  pending: 'yellow',
  failed: 'red',
  failure: 'red',
  denied: 'red',
  suspended: 'red',
  critical: 'red',
  warning: 'orange',
  info: 'blue',
  missing: 'orange',
  unknown: 'gray',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" data-status={status}>
      {status}
    </Badge>
  );
}

export function relativeTime(value: string | null | undefined, now = Date.now()): string {
  if (!value) return 'never';
  const seconds = Math.round((now - new Date(value).getTime()) / 1000);
  return ago(seconds);
}

export function ago(seconds: number): string {
  if (seconds < 0) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** The Edit and Delete buttons at the end of an admin table row; Delete asks first. */
export function EditDeleteActions({
  name,
  message,
  onEdit,
  onDelete,
}: {
  name: string;
  message: ReactNode;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
}) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Button size="xs" variant="default" onClick={onEdit}>
        Edit
      </Button>
      <ConfirmButton size="xs" title={`Delete ${name}`} message={message} onConfirm={onDelete}>
        Delete
      </ConfirmButton>
    </Group>
  );
}

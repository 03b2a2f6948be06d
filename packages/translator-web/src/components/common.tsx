import { Alert, Badge, Button, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { notifyError as notifyErrorTitled, notifySuccess } from '@app/web-kit';
import type { ReactNode } from 'react';
import { ApiError, type PhraseStatus } from '../api.ts';
import { errorMessage, Loading } from './basics.tsx';
import { usePageParam } from '../list-params.ts';

// Shared by both web clients; re-exported where this app's pages look for them.
export { formatBytes, formatDate } from '@app/web-kit';

// The shell (Layout, sign-in) imports basics.tsx only, so this module and what it pulls in (Modal,
// Pagination, …) stay out of the first load.
export { errorMessage, Loading };

export function notifyError(error: unknown, title = 'The request failed') {
  notifyErrorTitled(error, title);
}

export const notifyOk = notifySuccess;

/** Deletes with the API, says so and refreshes what showed it; a failure is shown instead. */
export async function deleteAndRefresh(
  remove: () => Promise<unknown>,
  done: string,
  refresh: () => Promise<unknown>,
) {
  try {
    await remove();
    notifyOk(done);
    await refresh();
  } catch (error) {
    notifyError(error);
  }
}

/** A field's message from a 400/422 answer (`fields` keyed by the request path). */
export function fieldError(error: unknown, ...names: string[]): string | undefined {
  if (!(error instanceof ApiError) || !error.fields) return undefined;
  for (const [path, message] of Object.entries(error.fields)) {
    if (names.some((name) => path === name || path.startsWith(`${name}.`) || path.endsWith(`/${name}`)))
      return message;
  }
  return undefined;
}

export function QueryError({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <Alert color="red" title="Could not load" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        {retry && (
          <Button size="xs" variant="light" color="red" onClick={retry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Loading → error → content, for a TanStack query. */
export function QueryView<T>({
  query,
  children,
  label,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  children: (data: T) => ReactNode;
  label?: string;
}) {
  if (query.isPending) return <Loading label={label} />;
  if (query.error || query.data === undefined)
    return <QueryError error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
      <Title order={2}>{children}</Title>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}

const STATUS_COLOR: Record<string, string> = {
  pending: 'yellow',
  approved: 'green',
  trash: 'gray',
  running: 'blue',
  completed: 'green',
  failed: 'red',
  cancelled: 'gray',
};

export function StatusBadge({ status }: { status: PhraseStatus | string }) {
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} variant="light">
      {status}
    </Badge>
  );
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

/**
 * The count and page buttons under a long list (the API's page/limit), bound to the address's `page`;
 * nothing when one page holds it all.
 */
export function ListPager({ total, limit, noun }: { total: number; limit: number; noun: string }) {
  const [page, setPage] = usePageParam();
  if (total <= limit) return null;
  return (
    <Group justify="space-between" data-testid="list-pager">
      <Text size="sm" c="dimmed">
        {total} {noun}
      </Text>
      <Pagination
        total={Math.ceil(total / limit)}
        value={page}
        onChange={setPage}
        size="sm"
        getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
        getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
      />
    </Group>
  );
}

import { Button, Center, Code, Stack, Text } from '@mantine/core';
import { DataTable, useUrlView, type Column, type TableView } from '@app/web-kit';
import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import type { AuditEvent, AuditPage } from '../api/audit.ts';
import { EmptyState, formatDate, QueryState, StatusBadge } from './common.tsx';
import { targetOf, withNamesFromDetails, type TargetNames } from './audit-targets.ts';

const actorOf = (event: AuditEvent) =>
  event.actor.kind === 'system'
    ? 'system'
    : `${event.actor.uid ?? `#${event.actor.uidNumber}`}${event.actor.kind === 'apikey' ? ' (API key)' : ''}`;

const columnsFor = (names: TargetNames): Array<Column<AuditEvent>> => [
  {
    key: 'time',
    header: 'Time',
    phone: 'title',
    sortValue: (e) => e.id,
    cell: (e) => <span title={e.occurredAt}>{formatDate(e.occurredAt)}</span>,
  },
  { key: 'actor', header: 'Who', sortValue: actorOf, cell: actorOf },
  { key: 'action', header: 'Action', sortValue: (e) => e.action, cell: (e) => <Code>{e.action}</Code> },
  {
    key: 'target',
    header: 'Target',
    sortValue: (e) => targetOf(e, names),
    cell: (e) => targetOf(e, names),
  },
  {
    key: 'outcome',
    header: 'Outcome',
    sortValue: (e) => e.outcome,
    cell: (e) => (
      <>
        <StatusBadge status={e.outcome} />{' '}
        <Text span size="xs" c="dimmed">
          {[e.httpStatus, e.errorCode].filter(Boolean).join(' ')}
        </Text>
      </>
    ),
  },
  {
    key: 'from',
    header: 'From',
    sortValue: (e) => e.sourceAddress ?? '',
    cell: (e) => e.sourceAddress ?? '—',
  },
];

/**
 * Audit entries as loaded so far, newest first, with a button for older ones; targets by name where
 * `names` (what the page already loaded) or the entries themselves give one.
 */
export function AuditTable({
  query,
  testId,
  names = {},
}: {
  query: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  testId: string;
  names?: TargetNames;
}) {
  const [view, changeView] = useUrlView({ filterKeys: [], sort: '-time' });
  return (
    <QueryState
      query={query}
      isEmpty={(data) => !data.pages[0]?.events.length}
      empty={<EmptyState title="No entries" />}
    >
      {(data) => (
        <Rows
          rows={data.pages.flatMap((page) => page.events)}
          query={query}
          testId={testId}
          names={names}
          view={view}
          onViewChange={changeView}
        />
      )}
    </QueryState>
  );
}

function Rows({
  rows,
  query,
  testId,
  names,
  view,
  onViewChange,
}: {
  rows: AuditEvent[];
  query: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  testId: string;
  names: TargetNames;
  view: TableView;
  onViewChange: (change: Partial<TableView>) => void;
}) {
  const known = withNamesFromDetails(rows, names);
  return (
    <Stack>
      <DataTable
        data-testid={testId}
        rows={rows}
        rowKey={(event) => event.id}
        rowAttributes={(event) => ({ 'data-action': event.action, 'data-actor': event.actor.uid ?? '' })}
        columns={columnsFor(known)}
        searchText={(event) => `${event.action} ${actorOf(event)} ${targetOf(event, known)}`}
        searchLabel="Search loaded entries"
        view={view}
        onViewChange={onViewChange}
      />
      {query.hasNextPage ? (
        <Center>
          <Button
            variant="default"
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            Load older entries
          </Button>
        </Center>
      ) : null}
    </Stack>
  );
}

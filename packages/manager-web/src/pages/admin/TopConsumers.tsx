import { DataTable, useLocalView, type Column, type TableView } from '@app/web-kit';
import { Anchor, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTopConsumers, type Consumer, type ConsumerSort } from '../../api/metrics.ts';
import { EmptyState, formatBytes, QueryState, relativeTime } from '../../components/common.tsx';
import { cpusText, percentText, rateText } from '../../components/metric-format.ts';

const LIMIT = 20;
const SORTS: ConsumerSort[] = ['cpu', 'memory', 'disk', 'network', 'lastAccess'];
const FIRST_SORT = { key: 'cpu', direction: 'descending' } as const;

const share = (pct: number | null, absolute: string) =>
  pct === null ? absolute : `${percentText(pct)} · ${absolute}`;
const traffic = (row: Consumer) =>
  row.netInBytesPerSecond === null && row.netOutBytesPerSecond === null
    ? null
    : (row.netInBytesPerSecond ?? 0) + (row.netOutBytesPerSecond ?? 0);

/** A column of a share of the allocation with its absolute value, sorted by the share unless told otherwise. */
const shareColumn = (
  key: ConsumerSort,
  header: string,
  pct: (row: Consumer) => number | null,
  absolute: (row: Consumer) => string,
  sortValue = pct,
): Column<Consumer> => ({
  key,
  header,
  align: 'end',
  cell: (row) => share(pct(row), absolute(row)),
  sortValue,
});

function consumerColumns(siteId: number): Array<Column<Consumer>> {
  return [
    {
      key: 'hostname',
      header: 'Container',
      phone: 'title',
      cell: (row) => (
        <Anchor component={Link} to={`/sites/${siteId}/containers/${row.containerId}`} fw={500}>
          {row.hostname}
        </Anchor>
      ),
    },
    { key: 'node', header: 'Node', cell: (row) => row.nodeName },
    shareColumn(
      'cpu',
      'CPU',
      (row) => row.cpuPercent,
      (row) => cpusText(row.cpuCores),
    ),
    shareColumn(
      'memory',
      'Memory',
      (row) => row.memoryPercent,
      (row) => formatBytes(row.memoryBytes),
    ),
    // The server ranks disks by bytes: a share of a small disk is no big consumer.
    shareColumn(
      'disk',
      'Disk',
      (row) => row.diskPercent,
      (row) => formatBytes(row.diskBytes),
      (row) => row.diskBytes,
    ),
    {
      key: 'network',
      header: 'Traffic',
      cell: (row) =>
        traffic(row) === null
          ? '—'
          : `in ${rateText(row.netInBytesPerSecond)} · out ${rateText(row.netOutBytesPerSecond)}`,
      sortValue: traffic,
    },
    {
      key: 'lastAccess',
      header: 'Last access',
      cell: (row) => (row.lastAccessedAt ? relativeTime(row.lastAccessedAt) : 'never'),
      sortValue: (row) => row.lastAccessedAt,
    },
  ];
}

/**
 * The site's containers using the most, by their latest sample. The server picks the top ones by the
 * sorted column; a first click on a column therefore shows the biggest first, a second reverses them.
 */
export function TopConsumers({ siteId }: { siteId: number }) {
  const [view, changeView] = useLocalView(FIRST_SORT);
  const sortKey = view.sort?.key ?? FIRST_SORT.key;
  const sort = SORTS.find((s) => s === sortKey) ?? FIRST_SORT.key;
  const top = useTopConsumers(siteId, sort, LIMIT);
  const onViewChange = (change: Partial<TableView>) =>
    changeView(
      change.sort && change.sort.key !== sortKey
        ? { ...change, sort: { key: change.sort.key, direction: 'descending' } }
        : change,
    );
  return (
    <section aria-labelledby="top-consumers-title">
      <Title order={3} size="h4" mt="lg" id="top-consumers-title">
        Top consumers
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        The {LIMIT} containers of this site using the most, by their latest sample.
      </Text>
      <QueryState
        query={top}
        empty={
          <EmptyState title="No samples yet">No running container of this site has been sampled.</EmptyState>
        }
      >
        {(rows) => (
          <DataTable
            data-testid="top-consumers"
            rows={rows}
            rowKey={(row) => row.containerId}
            rowAttributes={(row) => ({ 'data-container': row.hostname })}
            columns={consumerColumns(siteId)}
            view={view}
            onViewChange={onViewChange}
          />
        )}
      </QueryState>
    </section>
  );
}

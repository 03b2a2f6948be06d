import { LocalDataTable, type Column } from '@app/web-kit';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useNodeContainers } from '../../api/containers.ts';
import type { Container } from '../../api/types.ts';
import { EmptyState, QueryState, StatusBadge } from '../../components/common.tsx';

const nodeContainerColumns = (siteId: number): Array<Column<Container>> => [
  {
    key: 'hostname',
    header: 'Hostname',
    phone: 'title',
    sortValue: (c) => c.hostname,
    cell: (c) => (
      <Anchor component={Link} to={`/sites/${siteId}/containers/${c.id}`}>
        {c.hostname}
      </Anchor>
    ),
  },
  { key: 'owner', header: 'Owner', sortValue: (c) => c.owner, cell: (c) => c.owner },
  {
    key: 'status',
    header: 'Status',
    sortValue: (c) => c.status,
    cell: (c) => <StatusBadge status={c.status} />,
  },
  { key: 'ipv4', header: 'IPv4', cell: (c) => c.ipv4Address ?? '—' },
];

/** The containers a node holds, each linked to its page. */
export function NodeContainers({ siteId, nodeId }: { siteId: number; nodeId: number }) {
  const containers = useNodeContainers(siteId, nodeId);
  return (
    <QueryState
      query={containers}
      empty={
        <EmptyState title="No containers on this node">Containers created on it appear here.</EmptyState>
      }
    >
      {(list) => (
        <LocalDataTable
          data-testid="node-containers"
          rows={list}
          rowKey={(c) => c.id}
          rowAttributes={(c) => ({ 'data-container': c.hostname })}
          columns={nodeContainerColumns(siteId)}
          searchText={(c) => c.hostname}
          searchLabel="Hostname"
          sort={{ key: 'hostname', direction: 'ascending' }}
        />
      )}
    </QueryState>
  );
}

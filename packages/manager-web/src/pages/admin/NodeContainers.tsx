import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { useNodeContainers } from '../../api/containers.ts';
import { EmptyState, QueryState, StatusBadge } from '../../components/common.tsx';

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
        <Table.ScrollContainer minWidth={420}>
          <Table striped data-testid="node-containers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Hostname</Table.Th>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>IPv4</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((container) => (
                <Table.Tr key={container.id} data-container={container.hostname}>
                  <Table.Td>
                    <Anchor component={Link} to={`/sites/${siteId}/containers/${container.id}`}>
                      {container.hostname}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{container.owner}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={container.status} />
                  </Table.Td>
                  <Table.Td>{container.ipv4Address ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </QueryState>
  );
}

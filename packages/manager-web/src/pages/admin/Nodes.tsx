import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { showError, showSuccess } from '../../api/errors.ts';
import { rememberedSite, rememberSite, useDeleteNode, useNodes, useSites } from '../../api/fleet.ts';
import { SitePicker } from '../../components/SitePicker.tsx';
import { NodeOnlineBadge } from './NodeConnectionCheck.tsx';
import { ConfirmButton, EmptyState, PageHeader, QueryState } from '../../components/common.tsx';

/** `/nodes` without a site: the last one used, or the first. */
function PickSite({ to }: { to: (siteId: number) => string }) {
  const sites = useSites();
  return (
    <>
      <PageHeader title="Nodes" />
      <QueryState
        query={sites}
        empty={
          <EmptyState title="No sites yet">
            Create a{' '}
            <Anchor component={Link} to="/sites">
              site
            </Anchor>{' '}
            first.
          </EmptyState>
        }
      >
        {(list) => {
          const remembered = rememberedSite();
          const site = list.find((s) => s.id === remembered) ?? list[0]!;
          return <Navigate to={to(site.id)} replace />;
        }}
      </QueryState>
    </>
  );
}

export function NodesPage() {
  const params = useParams();
  const navigate = useNavigate();
  const siteId = params.siteId ? Number(params.siteId) : undefined;
  const nodes = useNodes(siteId);
  const sites = useSites();
  const remove = useDeleteNode(siteId ?? 0, {
    onSuccess: () => showSuccess('Node deleted'),
    onError: (error) => showError(error),
  });
  if (siteId === undefined) return <PickSite to={(id) => `/sites/${id}/nodes`} />;
  rememberSite(siteId);
  const site = sites.data?.find((s) => s.id === siteId);
  return (
    <>
      <PageHeader title={`Nodes${site ? ` · ${site.name}` : ''}`}>
        <SitePicker value={siteId} onChange={(id) => navigate(`/sites/${id}/nodes`)} />
        <Button variant="default" component={Link} to={`/sites/${siteId}/nodes/import`}>
          Import cluster
        </Button>
        <Button component={Link} to={`/sites/${siteId}/nodes/new`}>
          New node
        </Button>
      </PageHeader>
      <QueryState
        query={nodes}
        empty={
          <EmptyState title="No nodes in this site">
            Add a Proxmox VE host, a container engine, or a simulated dummy node.
          </EmptyState>
        }
      >
        {(list) => (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover data-testid="nodes-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>API</Table.Th>
                  <Table.Th>GPU</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((node) => (
                  <Table.Tr key={node.id} data-node={node.name}>
                    <Table.Td fw={500}>
                      <Anchor component={Link} to={`/sites/${siteId}/nodes/${node.id}`}>
                        {node.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light">{node.nodeType}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <NodeOnlineBadge siteId={siteId} nodeId={node.id} />
                    </Table.Td>
                    <Table.Td>{node.ipv4Address ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" truncate maw={260}>
                        {node.apiUrl ?? '—'}
                      </Text>
                      {node.nodeType !== 'dummy' && !node.hasSecret ? (
                        <Text size="xs" c="orange">
                          no credentials
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{node.nvidiaAvailable ? 'yes' : '—'}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          component={Link}
                          to={`/sites/${siteId}/nodes/${node.id}/edit`}
                        >
                          Edit
                        </Button>
                        <ConfirmButton
                          label="Delete"
                          title={`Delete ${node.name}`}
                          message="A node can only be deleted once it has no containers."
                          onConfirm={() => remove.mutateAsync(node)}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </>
  );
}

import { ConfirmButton, DataTable, useUrlView, type Column } from '@app/web-kit';
import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { showError, showSuccess } from '../../api/errors.ts';
import { rememberedSite, rememberSite, useDeleteNode, useNodes, useSites } from '../../api/fleet.ts';
import type { Node } from '../../api/types.ts';
import { SitePicker } from '../../components/SitePicker.tsx';
import { NodeOnlineBadge } from './NodeConnectionCheck.tsx';
import { TopConsumers } from './TopConsumers.tsx';
import { EmptyState, PageHeader, QueryState } from '../../components/common.tsx';

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

const NODE_TYPES: Array<Node['nodeType']> = ['hypervisor', 'engine', 'dummy'];

function nodeColumns(siteId: number, remove: (node: Node) => Promise<unknown>): Array<Column<Node>> {
  return [
    {
      key: 'name',
      header: 'Name',
      phone: 'title',
      sortValue: (node) => node.name,
      cell: (node) => (
        <Anchor component={Link} to={`/sites/${siteId}/nodes/${node.id}`} fw={500}>
          {node.name}
        </Anchor>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      sortValue: (node) => node.nodeType,
      cell: (node) => <Badge variant="light">{node.nodeType}</Badge>,
    },
    { key: 'state', header: 'State', cell: (node) => <NodeOnlineBadge siteId={siteId} nodeId={node.id} /> },
    {
      key: 'address',
      header: 'Address',
      sortValue: (node) => node.ipv4Address,
      cell: (node) => node.ipv4Address ?? '—',
    },
    {
      key: 'api',
      header: 'API',
      phone: 'hidden',
      cell: (node) => (
        <>
          <Text size="sm" truncate maw={260}>
            {node.apiUrl ?? '—'}
          </Text>
          {node.nodeType !== 'dummy' && !node.hasSecret ? (
            <Text size="xs" c="orange">
              no credentials
            </Text>
          ) : null}
        </>
      ),
    },
    { key: 'gpu', header: 'GPU', phone: 'hidden', cell: (node) => (node.nvidiaAvailable ? 'yes' : '—') },
    {
      key: 'actions',
      header: 'Actions',
      cell: (node) => (
        <Group gap={4} wrap="nowrap">
          <Button size="xs" variant="default" component={Link} to={`/sites/${siteId}/nodes/${node.id}/edit`}>
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            title={`Delete ${node.name}`}
            message="A node can only be deleted once it has no containers."
            onConfirm={() => remove(node)}
          >
            Delete
          </ConfirmButton>
        </Group>
      ),
    },
  ];
}

export function NodesPage() {
  const params = useParams();
  const navigate = useNavigate();
  const siteId = params.siteId ? Number(params.siteId) : undefined;
  const nodes = useNodes(siteId);
  const sites = useSites();
  const [view, changeView] = useUrlView({ filterKeys: ['type'], sort: 'name' });
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
          <>
            <DataTable
              data-testid="nodes-table"
              rows={list}
              rowKey={(node) => node.id}
              rowAttributes={(node) => ({ 'data-node': node.name })}
              columns={nodeColumns(siteId, (node) => remove.mutateAsync(node))}
              searchText={(node) => `${node.name} ${node.ipv4Address ?? ''}`}
              searchLabel="Name or address"
              filters={[
                {
                  key: 'type',
                  label: 'Type',
                  options: NODE_TYPES.map((type) => ({ value: type, label: type })),
                  value: (node) => node.nodeType,
                },
              ]}
              view={view}
              onViewChange={changeView}
            />
            <TopConsumers siteId={siteId} />
          </>
        )}
      </QueryState>
    </>
  );
}

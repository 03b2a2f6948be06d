import {
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { rememberedSite, rememberSite, useNodes, useSites } from '../../api/fleet.ts';
import { useSession } from '../../api/session.ts';
import type { Container } from '../../api/types.ts';
import { SitePicker } from '../../components/SitePicker.tsx';
import {
  EmptyState,
  formatDate,
  PageHeader,
  QueryState,
  relativeTime,
  StatusBadge,
} from '../../components/common.tsx';

export function sshCommand(container: Container, user: string): string | null {
  if (!container.sshPort || !container.sshHost) return null;
  return `ssh -p ${container.sshPort} ${user}@${container.sshHost}`;
}

/** `/containers`: the site used last, or the first one. */
export function ContainersHome() {
  const sites = useSites();
  const session = useSession();
  return (
    <>
      <PageHeader title="Containers" />
      <QueryState
        query={sites}
        empty={
          <EmptyState title="No sites yet">
            {session.data?.isAdmin ? (
              <>
                Containers live on the nodes of a site.{' '}
                <Anchor component={Link} to="/sites">
                  Create a site
                </Anchor>{' '}
                to start.
              </>
            ) : (
              'An administrator has not set up a site yet.'
            )}
          </EmptyState>
        }
      >
        {(list) => {
          const remembered = rememberedSite();
          const site = list.find((s) => s.id === remembered) ?? list[0]!;
          return <Navigate to={`/sites/${site.id}/containers`} replace />;
        }}
      </QueryState>
    </>
  );
}

function useUsernames(enabled: boolean) {
  const users = useQuery({ queryKey: ['users'], queryFn: () => api.get('/users'), enabled });
  return users.data?.map((u) => u.uid) ?? [];
}

export function ContainersPage() {
  const siteId = Number(useParams().siteId);
  const navigate = useNavigate();
  const session = useSession();
  const user = session.data?.user ?? 'user';
  const isAdmin = Boolean(session.data?.isAdmin);
  const [params, setParams] = useSearchParams();
  const [hostname, setHostname] = useState(params.get('hostname') ?? '');
  const [debounced] = useDebouncedValue(hostname, 300);
  const nodeId = params.get('nodeId');
  const owners = params.getAll('owner');
  const sites = useSites();
  const nodes = useNodes(siteId);
  const usernames = useUsernames(isAdmin);

  useEffect(() => {
    if (Number.isInteger(siteId)) rememberSite(siteId);
  }, [siteId]);
  useEffect(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (debounced) next.set('hostname', debounced);
        else next.delete('hostname');
        return next;
      },
      { replace: true },
    );
  }, [debounced, setParams]);

  const containers = useQuery({
    queryKey: ['sites', siteId, 'containers', { hostname: debounced, nodeId, owners }],
    queryFn: () =>
      api.get('/sites/{siteId}/containers', {
        path: { siteId },
        query: { hostname: debounced, nodeId: nodeId ? Number(nodeId) : undefined, user: owners },
      }),
    refetchInterval: (q) =>
      q.state.status === 'error' ? false : q.state.data?.some((c) => c.status === 'creating') ? 3000 : 30_000,
  });

  const setFilter = (name: string, values: string[]) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(name);
        for (const value of values) next.append(name, value);
        return next;
      },
      { replace: true },
    );

  const site = sites.data?.find((s) => s.id === siteId);
  const filtered = Boolean(debounced || nodeId || owners.length);

  return (
    <>
      <PageHeader title={`Containers${site ? ` · ${site.name}` : ''}`}>
        <SitePicker value={siteId} onChange={(id) => navigate(`/sites/${id}/containers`)} />
        <Button component={Link} to={`/sites/${siteId}/containers/new`}>
          New container
        </Button>
      </PageHeader>
      <Group mb="md" align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label="Hostname"
          placeholder="Filter by hostname"
          value={hostname}
          onChange={(event) => setHostname(event.currentTarget.value)}
          style={{ flex: '1 1 180px' }}
        />
        <Select
          label="Node"
          placeholder="All nodes"
          clearable
          data={(nodes.data ?? []).map((n) => ({ value: String(n.id), label: n.name }))}
          value={nodeId}
          onChange={(value) => setFilter('nodeId', value ? [value] : [])}
          style={{ flex: '1 1 160px' }}
        />
        <TagsInput
          label="Owners"
          placeholder={owners.length ? '' : 'Any owner'}
          data={usernames}
          value={owners}
          onChange={(values) => setFilter('owner', values)}
          clearable
          style={{ flex: '2 1 220px' }}
        />
      </Group>
      <QueryState
        query={containers}
        empty={
          filtered ? (
            <EmptyState title="No container matches these filters" />
          ) : (
            <EmptyState title="No containers yet">
              <Anchor component={Link} to={`/sites/${siteId}/containers/new`}>
                Create your first container
              </Anchor>
              .
            </EmptyState>
          )
        }
      >
        {(list) => (
          <Table.ScrollContainer minWidth={1000}>
            <Table striped highlightOnHover verticalSpacing="xs" data-testid="containers-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Hostname</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Owner</Table.Th>
                  <Table.Th>Node</Table.Th>
                  <Table.Th>IP</Table.Th>
                  <Table.Th>SSH</Table.Th>
                  <Table.Th>HTTP</Table.Th>
                  <Table.Th>Last access</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((c) => {
                  const ssh = sshCommand(c, user);
                  return (
                    <Table.Tr key={c.id} data-container={c.hostname}>
                      <Table.Td fw={500}>
                        <Anchor component={Link} to={`/sites/${siteId}/containers/${c.id}`}>
                          {c.hostname}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={c.status} />
                      </Table.Td>
                      <Table.Td>
                        {c.owner}
                        {c.owner !== user && c.collaborators.includes(user) ? (
                          <Text size="xs" c="dimmed">
                            shared with you
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>{c.nodeName ?? '—'}</Table.Td>
                      <Table.Td>{c.ipv4Address ?? '—'}</Table.Td>
                      <Table.Td>
                        {ssh ? (
                          <CopyButton value={ssh}>
                            {({ copied, copy }) => (
                              <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                                <Code
                                  onClick={copy}
                                  onKeyDown={(event) => (event.key === 'Enter' ? copy() : undefined)}
                                  tabIndex={0}
                                  role="button"
                                  style={{ cursor: 'pointer', whiteSpace: 'nowrap' }}
                                >
                                  {ssh}
                                </Code>
                              </Tooltip>
                            )}
                          </CopyButton>
                        ) : (
                          '—'
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={0}>
                          {c.httpEntries.length === 0 ? '—' : null}
                          {c.httpEntries.map((entry) =>
                            entry.externalUrl ? (
                              <Anchor
                                key={entry.port}
                                href={entry.externalUrl}
                                target="_blank"
                                rel="noopener noreferrer"
                                size="sm"
                              >
                                {entry.externalUrl.replace(/^https?:\/\//, '')}
                              </Anchor>
                            ) : (
                              <Text key={entry.port} size="sm" c="dimmed">
                                port {entry.port}
                              </Text>
                            ),
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td title={formatDate(c.lastAccessedAt)}>
                        {relativeTime(c.lastAccessedAt)}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </>
  );
}

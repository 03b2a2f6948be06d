import { Anchor, Button, Code, CopyButton, Stack, TagsInput, Text, Tooltip } from '@mantine/core';
import { DataTable, useUrlView, type Column, type SelectFilter } from '@app/web-kit';
import { useEffect, useMemo } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useContainers } from '../../api/containers.ts';
import { rememberedSite, rememberSite, useNodes, useSites } from '../../api/fleet.ts';
import { useSession } from '../../api/session.ts';
import type { Container } from '../../api/types.ts';
import { useUsers } from '../../api/users.ts';
import { NoSitesYet } from '../../components/NoSitesYet.tsx';
import { OnboardingWalk } from '../../components/OnboardingWalk.tsx';
import { SitePicker } from '../../components/SitePicker.tsx';
import {
  EmptyState,
  formatDate,
  PageHeader,
  QueryState,
  relativeTime,
  StatusBadge,
} from '../../components/common.tsx';
import { BulkActions } from './BulkActions.tsx';

export function sshCommand(container: Container, user: string): string | null {
  if (!container.sshPort || !container.sshHost) return null;
  return `ssh -p ${container.sshPort} ${user}@${container.sshHost}`;
}

/** `/containers`: the site used last, or the first one. */
export function ContainersHome() {
  const sites = useSites();
  return (
    <>
      <PageHeader title="Containers" />
      <QueryState query={sites} empty={<NoSitesYet />}>
        {(list) => {
          const remembered = rememberedSite();
          const site = list.find((s) => s.id === remembered) ?? list[0]!;
          return <Navigate to={`/sites/${site.id}/containers`} replace />;
        }}
      </QueryState>
    </>
  );
}

const STATUSES = ['running', 'offline', 'creating', 'failed', 'missing', 'unknown'] as const;

function SshCommand({ command }: { command: string }) {
  return (
    <CopyButton value={command}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
          <Code
            onClick={copy}
            onKeyDown={(event) => (event.key === 'Enter' ? copy() : undefined)}
            tabIndex={0}
            role="button"
            style={{ cursor: 'pointer', overflowWrap: 'anywhere' }}
          >
            {command}
          </Code>
        </Tooltip>
      )}
    </CopyButton>
  );
}

function HttpEntries({ container }: { container: Container }) {
  return (
    <Stack gap={0}>
      {container.httpEntries.length === 0 ? '—' : null}
      {container.httpEntries.map((entry) =>
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
  );
}

function containerColumns(siteId: number, user: string): Array<Column<Container>> {
  return [
    {
      key: 'hostname',
      header: 'Hostname',
      phone: 'title',
      sortValue: (c) => c.hostname,
      cell: (c) => (
        <Anchor component={Link} to={`/sites/${siteId}/containers/${c.id}`} fw={500}>
          {c.hostname}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      sortValue: (c) => c.status,
      cell: (c) => <StatusBadge status={c.status} />,
    },
    {
      key: 'owner',
      header: 'Owner',
      sortValue: (c) => c.owner,
      cell: (c) => (
        <>
          {c.owner}
          {c.owner !== user && c.collaborators.includes(user) ? (
            <Text size="xs" c="dimmed">
              shared with you
            </Text>
          ) : null}
        </>
      ),
    },
    { key: 'node', header: 'Node', sortValue: (c) => c.nodeName, cell: (c) => c.nodeName ?? '—' },
    {
      key: 'ip',
      header: 'IP',
      phone: 'hidden',
      sortValue: (c) => c.ipv4Address,
      cell: (c) => c.ipv4Address ?? '—',
    },
    {
      key: 'ssh',
      header: 'SSH',
      cell: (c) => {
        const ssh = sshCommand(c, user);
        return ssh ? <SshCommand command={ssh} /> : '—';
      },
    },
    { key: 'http', header: 'HTTP', cell: (c) => <HttpEntries container={c} /> },
    {
      key: 'lastAccess',
      header: 'Last access',
      sortValue: (c) => c.lastAccessedAt,
      cell: (c) => <span title={formatDate(c.lastAccessedAt)}>{relativeTime(c.lastAccessedAt)}</span>,
    },
  ];
}

const FILTER_KEYS = ['status', 'node'];

export function ContainersPage() {
  const siteId = Number(useParams().siteId);
  const navigate = useNavigate();
  const session = useSession();
  const user = session.data?.user ?? 'user';
  const isAdmin = Boolean(session.data?.isAdmin);
  const [params, setParams] = useSearchParams();
  const owners = params.getAll('owner');
  const sites = useSites();
  const nodes = useNodes(siteId);
  const users = useUsers(isAdmin);
  const containers = useContainers(siteId, owners);
  const [view, changeView] = useUrlView({ filterKeys: FILTER_KEYS, sort: 'hostname' });

  useEffect(() => {
    if (Number.isInteger(siteId)) rememberSite(siteId);
  }, [siteId]);

  const columns = useMemo(() => containerColumns(siteId, user), [siteId, user]);
  const filters = useMemo<Array<SelectFilter<Container>>>(
    () => [
      {
        key: 'status',
        label: 'Status',
        options: STATUSES.map((status) => ({ value: status, label: status })),
        value: (c) => c.status,
      },
      {
        key: 'node',
        label: 'Node',
        options: (nodes.data ?? []).map((n) => ({ value: n.name, label: n.name })),
        value: (c) => c.nodeName ?? '',
      },
    ],
    [nodes.data],
  );
  const setOwners = (values: string[]) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('owner');
        next.delete('page');
        for (const value of values) next.append('owner', value);
        return next;
      },
      { replace: true },
    );

  const site = sites.data?.find((s) => s.id === siteId);

  return (
    <>
      <PageHeader title={`Containers${site ? ` · ${site.name}` : ''}`}>
        <SitePicker value={siteId} onChange={(id) => navigate(`/sites/${id}/containers`)} />
        <Button component={Link} to={`/sites/${siteId}/containers/new`}>
          New container
        </Button>
      </PageHeader>
      {containers.data?.length === 0 && !owners.length ? <OnboardingWalk siteId={siteId} /> : null}
      {isAdmin ? (
        <TagsInput
          label="Owners"
          placeholder={owners.length ? '' : 'Any owner'}
          data={users.data?.map((u) => u.uid) ?? []}
          value={owners}
          onChange={setOwners}
          clearable
          mb="sm"
          maw={480}
        />
      ) : null}
      <QueryState
        query={containers}
        empty={
          owners.length ? (
            <EmptyState title="No container of these owners" />
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
          <DataTable
            data-testid="containers-table"
            rows={list}
            rowKey={(c) => c.id}
            rowAttributes={(c) => ({ 'data-container': c.hostname })}
            columns={columns}
            searchText={(c) => c.hostname}
            searchLabel="Hostname"
            filters={filters}
            view={view}
            onViewChange={changeView}
            noMatch={<EmptyState title="No container matches these filters" />}
            bulkActions={(selected, clear) => (
              <BulkActions siteId={siteId} selected={selected} clear={clear} />
            )}
          />
        )}
      </QueryState>
    </>
  );
}

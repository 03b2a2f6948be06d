import { Anchor, Paper, Select, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { containersQuery } from '../api/containers.ts';
import { useSites } from '../api/fleet.ts';
import type { Container, Site } from '../api/types.ts';
import { NoSitesYet } from '../components/NoSitesYet.tsx';
import { PageHeader, QueryState, StatusBadge } from '../components/common.tsx';

/** The states that need someone, worst first: a failed create, a container the hypervisor lost, one nobody can read. */
const ATTENTION = ['failed', 'missing', 'unknown'];

interface Placed {
  site: Site;
  container: Container;
}

function Stat({ label, value, alarm }: { label: string; value: number; alarm?: boolean }) {
  return (
    <Paper withBorder p="sm" data-stat={label} data-value={value}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700} c={alarm && value > 0 ? 'red.8' : undefined}>
        {value}
      </Text>
    </Paper>
  );
}

/**
 * A titled region holding a small table of `head` columns (scrolling sideways on a narrow screen), or
 * `empty` when there is no row.
 */
function TableSection({
  title,
  head,
  rows,
  empty,
}: {
  title: string;
  head: string[];
  rows: ReactNode[];
  empty?: string;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <Title order={3} size="h4" id={titleId} mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={head.length * 80}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                {head.map((name) => (
                  <Table.Th key={name}>{name}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{rows}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </section>
  );
}

function NeedsAttention({ placed }: { placed: Placed[] }) {
  const failing = placed
    .filter(({ container }) => ATTENTION.includes(container.status))
    .sort(
      (a, b) =>
        ATTENTION.indexOf(a.container.status) - ATTENTION.indexOf(b.container.status) ||
        a.container.hostname.localeCompare(b.container.hostname),
    );
  return (
    <TableSection
      title="Needs attention"
      head={['Container', 'Site', 'Status']}
      empty="Nothing needs attention: no container has failed or gone missing."
      rows={failing.map(({ site, container }) => (
        <Table.Tr key={container.id}>
          <Table.Td>
            <Anchor component={Link} to={`/sites/${site.id}/containers/${container.id}`}>
              {container.hostname}
            </Anchor>
          </Table.Td>
          <Table.Td>{site.name}</Table.Td>
          <Table.Td>
            <StatusBadge status={container.status} />
          </Table.Td>
        </Table.Tr>
      ))}
    />
  );
}

function BySite({ sites, placed }: { sites: Site[]; placed: Placed[] }) {
  const count = (site: Site, status?: string) =>
    placed.filter((p) => p.site.id === site.id && (!status || p.container.status === status)).length;
  return (
    <TableSection
      title="By site"
      head={['Site', 'Nodes', 'Containers', 'Running', 'Failed']}
      rows={sites.map((site) => (
        <Table.Tr key={site.id} data-site={site.name}>
          <Table.Td>
            <Anchor component={Link} to={`/sites/${site.id}/containers`}>
              {site.name}
            </Anchor>
          </Table.Td>
          <Table.Td>{site.nodeCount ?? 0}</Table.Td>
          <Table.Td>{count(site)}</Table.Td>
          <Table.Td>{count(site, 'running')}</Table.Td>
          <Table.Td>{count(site, 'failed')}</Table.Td>
        </Table.Tr>
      ))}
    />
  );
}

/** The containers of `sites` (one list request per site, with the viewer's own visibility). */
function FleetFigures({ sites }: { sites: Site[] }) {
  const lists = useQueries({ queries: sites.map((site) => containersQuery(site.id)) });
  if (lists.some((list) => list.isPending)) return <Text c="dimmed">Loading the containers…</Text>;
  const placed = sites.flatMap((site, i) => (lists[i]?.data ?? []).map((container) => ({ site, container })));
  const withStatus = (status: string) => placed.filter((p) => p.container.status === status).length;
  const unreadable = sites.filter((_site, i) => lists[i]?.isError).map((site) => site.name);
  return (
    <>
      {unreadable.length ? (
        <Text c="red.8" size="sm" mb="sm" role="alert">
          The containers of {unreadable.join(', ')} could not be read: the counts leave them out.
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} mb="lg" data-testid="overview-stats">
        <Stat label="Sites" value={sites.length} />
        <Stat label="Nodes" value={sites.reduce((sum, site) => sum + (site.nodeCount ?? 0), 0)} />
        <Stat label="Containers" value={placed.length} />
        <Stat label="Running" value={withStatus('running')} />
        <Stat label="Offline" value={withStatus('offline')} />
        <Stat label="Failed" value={withStatus('failed')} alarm />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <NeedsAttention placed={placed} />
        <BySite sites={sites} placed={placed} />
      </SimpleGrid>
    </>
  );
}

/** `/overview`: the fleet, or one site (`?site=`), by state; what needs attention first. */
export function OverviewPage() {
  const sites = useSites();
  const [params, setParams] = useSearchParams();
  const chosen = params.get('site');
  const pick = (value: string | null) =>
    setParams(value && value !== 'all' ? { site: value } : {}, { replace: true });
  return (
    <>
      <PageHeader title="Overview">
        <Select
          label="Site"
          size="sm"
          w={200}
          allowDeselect={false}
          value={chosen ?? 'all'}
          data={[
            { value: 'all', label: 'All sites' },
            ...(sites.data ?? []).map((site) => ({ value: String(site.id), label: site.name })),
          ]}
          onChange={pick}
        />
      </PageHeader>
      <QueryState query={sites} empty={<NoSitesYet />}>
        {(list) => <FleetFigures sites={chosen ? list.filter((site) => String(site.id) === chosen) : list} />}
      </QueryState>
    </>
  );
}

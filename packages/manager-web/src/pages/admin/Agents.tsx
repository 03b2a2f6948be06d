import { DataTable, type Column } from '@app/web-kit';
import { Badge, Group, Text } from '@mantine/core';
import type { Agent } from '../../api/types.ts';
import { useAgents } from '../../api/fleet.ts';
import { ago, EmptyState, formatDate, PageHeader, QueryState } from '../../components/common.tsx';
import { AgentTokensSection } from './AgentTokens.tsx';

/** Agents check in every 30 s: three missed check-ins make an agent stale. */
export const STALE_AFTER_S = 90;

const applyColor = { success: 'green', failure: 'red', unknown: 'gray' } as const;

const stale = (agent: Agent) =>
  agent.secondsSinceCheckin === null || agent.secondsSinceCheckin > STALE_AFTER_S;

const AGENT_COLUMNS: Array<Column<Agent>> = [
  { key: 'site', header: 'Site', cell: (agent) => agent.siteName ?? `#${agent.siteId}` },
  { key: 'host', header: 'Host', phone: 'title', cell: (agent) => <Text fw={500}>{agent.hostname}</Text> },
  { key: 'address', header: 'Address', cell: (agent) => agent.ipv4Address ?? '—' },
  {
    key: 'checkin',
    header: 'Last check-in',
    cell: (agent) => (
      <span title={formatDate(agent.lastCheckinAt)}>
        {agent.secondsSinceCheckin === null ? 'never' : ago(agent.secondsSinceCheckin)}
        {stale(agent) ? (
          <Badge color="red" ml="xs" size="sm">
            stale
          </Badge>
        ) : null}
      </span>
    ),
  },
  {
    key: 'services',
    header: 'Services (state · last apply)',
    cell: (agent) => <AgentServices agent={agent} />,
  },
];

function AgentServices({ agent }: { agent: Agent }) {
  const services = Object.entries(agent.services ?? {});
  return (
    <>
      <Group gap={4}>
        {services.map(([name, service]) => (
          <Badge
            key={name}
            variant="light"
            color={service.state === 'active' ? (applyColor[service.lastApply] ?? 'gray') : 'red'}
          >
            {name}: {service.state} · {service.lastApply}
          </Badge>
        ))}
        {services.length === 0 ? <Text c="dimmed">—</Text> : null}
      </Group>
      {services.map(([name, service]) =>
        service.lastApply === 'failure' && service.message ? (
          <Text key={name} size="xs" c="red" mt={4} data-testid="apply-message">
            {name}: {service.message}
          </Text>
        ) : null,
      )}
    </>
  );
}

export function AgentsPage() {
  const agents = useAgents();
  return (
    <>
      <PageHeader title="Site agents" />
      <Text size="sm" c="dimmed" mb="md">
        Each gateway’s agent checks in every 30 seconds. Agents silent for more than {STALE_AFTER_S} s are
        highlighted.
      </Text>
      <QueryState
        query={agents}
        empty={
          <EmptyState title="No agent has checked in yet">
            Install the site agent on each site’s gateway.
          </EmptyState>
        }
      >
        {(list) => (
          <DataTable
            data-testid="agents-table"
            rows={list}
            rowKey={(agent) => agent.id}
            columns={AGENT_COLUMNS}
            rowAlert={stale}
            rowAttributes={(agent) => ({ 'data-stale': String(stale(agent)) })}
          />
        )}
      </QueryState>
      <AgentTokensSection />
    </>
  );
}

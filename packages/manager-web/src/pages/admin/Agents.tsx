import { Badge, Group, Table, Text } from '@mantine/core';
import { useAgents } from '../../api/fleet.ts';
import { ago, EmptyState, formatDate, PageHeader, QueryState } from '../../components/common.tsx';
import { AgentTokensSection } from './AgentTokens.tsx';

/** Agents check in every 30 s: three missed check-ins make an agent stale. */
export const STALE_AFTER_S = 90;

const applyColor = { success: 'green', failure: 'red', unknown: 'gray' } as const;

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
          <Table.ScrollContainer minWidth={760}>
            <Table highlightOnHover data-testid="agents-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Site</Table.Th>
                  <Table.Th>Host</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Last check-in</Table.Th>
                  <Table.Th>Services (state · last apply)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((agent) => {
                  const stale =
                    agent.secondsSinceCheckin === null || agent.secondsSinceCheckin > STALE_AFTER_S;
                  return (
                    <Table.Tr
                      key={agent.id}
                      bg={stale ? 'var(--mantine-color-red-light)' : undefined}
                      data-stale={stale}
                    >
                      <Table.Td>{agent.siteName ?? `#${agent.siteId}`}</Table.Td>
                      <Table.Td fw={500}>{agent.hostname}</Table.Td>
                      <Table.Td>{agent.ipv4Address ?? '—'}</Table.Td>
                      <Table.Td title={formatDate(agent.lastCheckinAt)}>
                        {agent.secondsSinceCheckin === null ? 'never' : ago(agent.secondsSinceCheckin)}
                        {stale ? (
                          <Badge color="red" ml="xs" size="sm">
                            stale
                          </Badge>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {Object.entries(agent.services ?? {}).map(([name, service]) => (
                            <Badge
                              key={name}
                              variant="light"
                              color={
                                service.state === 'active' ? (applyColor[service.lastApply] ?? 'gray') : 'red'
                              }
                            >
                              {name}: {service.state} · {service.lastApply}
                            </Badge>
                          ))}
                          {!agent.services || Object.keys(agent.services).length === 0 ? (
                            <Text c="dimmed">—</Text>
                          ) : null}
                        </Group>
                        {Object.entries(agent.services ?? {}).map(([name, service]) =>
                          service.lastApply === 'failure' && service.message ? (
                            <Text key={name} size="xs" c="red" mt={4} data-testid="apply-message">
                              {name}: {service.message}
                            </Text>
                          ) : null,
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <AgentTokensSection />
    </>
  );
}

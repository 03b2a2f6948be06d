import { DataTable, type Column } from '@app/web-kit';
import { Alert, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { usePrefetchQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useNode, useNodeStats, useNodeStorages } from '../../api/fleet.ts';
import { nodeContainersQuery } from '../../api/containers.ts';
import type { Storage, Usage } from '../../api/types.ts';
import { NodeContainers } from './NodeContainers.tsx';
import { MetricsGraph } from '../../components/MetricsGraph.tsx';
import { EmptyState, formatBytes, PageHeader, QueryState } from '../../components/common.tsx';

interface Sample {
  time: string;
  cpu: number | null;
  memory: number | null;
}

/** Usage above this percentage is marked high. */
const HIGH_USAGE = 90;

const percent = (usage: Usage | undefined) =>
  usage?.used !== undefined && usage.total > 0 ? Math.round((usage.used / usage.total) * 1000) / 10 : null;

function UsageCard({ label, usage }: { label: string; usage: Usage | undefined }) {
  const value = percent(usage);
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={600} size="lg" c={value !== null && value > HIGH_USAGE ? 'red.8' : undefined}>
        {value === null ? '—' : `${value}%`}
        {value !== null && value > HIGH_USAGE ? ' · high' : ''}
      </Text>
      <Progress
        value={value ?? 0}
        color={value !== null && value > HIGH_USAGE ? 'red' : 'blue'}
        aria-label={`${label} usage`}
      />
      <Text size="xs" c="dimmed" mt={4}>
        {usage?.used !== undefined
          ? `${formatBytes(usage.used)} of ${formatBytes(usage.total)}`
          : 'not reported'}
      </Text>
    </Card>
  );
}

function uptime(seconds: number | undefined) {
  if (!seconds) return '—';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  return days ? `${days} d ${hours} h` : `${hours} h ${Math.floor((seconds % 3600) / 60)} min`;
}

const STORAGE_COLUMNS: Array<Column<Storage>> = [
  { key: 'name', header: 'Name', phone: 'title', cell: (s) => s.name },
  { key: 'total', header: 'Total', align: 'end', cell: (s) => formatBytes(s.total) },
  { key: 'available', header: 'Available', align: 'end', cell: (s) => formatBytes(s.available) },
  {
    key: 'used',
    header: 'Used',
    cell: (s) => (
      <Progress
        w={200}
        value={s.total ? ((s.total - s.available) / s.total) * 100 : 0}
        aria-label={`${s.name} used`}
      />
    ),
  },
];

function LiveStats({ siteId, nodeId }: { siteId: number; nodeId: number }) {
  const stats = useNodeStats(siteId, nodeId, 5000);
  const [history, setHistory] = useState<Sample[]>([]);
  const data = stats.data;
  useEffect(() => {
    if (!data?.available) return;
    const cpu = data.cpu?.usage === undefined ? null : Math.round(data.cpu.usage * 1000) / 10;
    setHistory((rows) => [
      ...rows.slice(-59),
      { time: new Date().toLocaleTimeString(), cpu, memory: percent(data.memory) },
    ]);
  }, [data]);

  return (
    <QueryState query={stats} isEmpty={() => false}>
      {(s) =>
        !s.available ? (
          <Alert color="gray" title="Live statistics unavailable">
            {s.reason ?? 'The node has no API credentials or cannot be reached.'}
          </Alert>
        ) : (
          <Stack>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Card withBorder padding="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  CPU
                </Text>
                <Text fw={600} size="lg">
                  {s.cpu?.usage === undefined ? '—' : `${Math.round(s.cpu.usage * 1000) / 10}%`}
                </Text>
                <Text size="xs" c="dimmed">
                  {s.cpu?.cores ?? '?'} cores · up {uptime(s.uptime)}
                </Text>
                {s.loadavg ? (
                  <Text size="xs" c="dimmed">
                    load {s.loadavg.map((l) => l.toFixed(2)).join(' ')}
                  </Text>
                ) : null}
              </Card>
              <UsageCard label="Memory" usage={s.memory} />
              <UsageCard label="Swap" usage={s.swap} />
              <UsageCard label="Root filesystem" usage={s.rootfs} />
            </SimpleGrid>
            {s.containers ? (
              <Text size="sm">
                Containers: {s.containers.running} running of {s.containers.total}
              </Text>
            ) : null}
            <Card withBorder>
              <Text fw={600} mb="xs">
                Utilisation (every 5 s)
              </Text>
              <div style={{ width: '100%', height: 240 }}>
                <ResponsiveContainer>
                  <LineChart data={history}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="time" minTickGap={40} fontSize={12} />
                    <YAxis domain={[0, 100]} unit="%" fontSize={12} width={48} />
                    <Tooltip />
                    <Legend />
                    <Line
                      type="monotone"
                      dataKey="cpu"
                      name="CPU"
                      stroke="#228be6"
                      dot={false}
                      isAnimationActive={false}
                    />
                    <Line
                      type="monotone"
                      dataKey="memory"
                      name="Memory"
                      stroke="#40c057"
                      dot={false}
                      isAnimationActive={false}
                    />
                  </LineChart>
                </ResponsiveContainer>
              </div>
            </Card>
            {s.datastores?.length ? (
              <Card withBorder>
                <Text fw={600} mb="xs">
                  Datastores
                </Text>
                <Stack gap="xs">
                  {s.datastores.map((d) => (
                    <div key={d.name}>
                      <Group justify="space-between">
                        <Text size="sm">{d.name}</Text>
                        <Text size="xs" c="dimmed">
                          {formatBytes(d.used)} of {formatBytes(d.total)}
                        </Text>
                      </Group>
                      <Progress value={percent(d) ?? 0} aria-label={`${d.name} usage`} />
                    </div>
                  ))}
                </Stack>
              </Card>
            ) : null}
          </Stack>
        )
      }
    </QueryState>
  );
}

export default function NodeDetailPage() {
  const params = useParams();
  const siteId = Number(params.siteId);
  const id = Number(params.id);
  const node = useNode(siteId, id);
  const storages = useNodeStorages(siteId, id);
  // Asked for with the node, not once it has answered: the list below would otherwise wait for it.
  usePrefetchQuery(nodeContainersQuery(siteId, id));
  return (
    <QueryState query={node} isEmpty={() => false}>
      {(n) => (
        <Stack>
          <PageHeader
            title={
              <Group gap="xs">
                {n.name}
                <Badge variant="light">{n.nodeType}</Badge>
              </Group>
            }
          >
            <Button variant="default" component={Link} to={`/sites/${siteId}/nodes`}>
              All nodes
            </Button>
            <Button component={Link} to={`/sites/${siteId}/nodes/${id}/edit`}>
              Edit
            </Button>
          </PageHeader>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Text size="sm">
              <b>Address:</b> {n.ipv4Address ?? '—'}
            </Text>
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              <b>API:</b> {n.apiUrl ?? '—'}
            </Text>
            <Text size="sm">
              <b>Storage:</b> images {n.imageStorage}, volumes {n.volumeStorage}, bridge {n.networkBridge}
            </Text>
            {n.nodeType !== 'dummy' ? (
              <Text size="sm" style={{ wordBreak: 'break-all' }} data-testid="node-tls">
                <b>TLS:</b>{' '}
                {n.tlsFingerprint
                  ? `pinned ${n.tlsFingerprint}`
                  : n.tlsVerify === false
                    ? 'not verified'
                    : 'verified against the trusted CAs'}
              </Text>
            ) : null}
          </SimpleGrid>
          <Title order={3} size="h4">
            Live statistics
          </Title>
          <LiveStats siteId={siteId} nodeId={id} />
          <MetricsGraph siteId={siteId} subject="node" id={id} />
          <Title order={3} size="h4">
            Containers
          </Title>
          <NodeContainers siteId={siteId} nodeId={id} />
          <Title order={3} size="h4">
            Template storages
          </Title>
          <QueryState
            query={storages}
            empty={
              <EmptyState title="No storages reported">
                The node has no API credentials, or the query failed.
              </EmptyState>
            }
          >
            {(list) => (
              <DataTable
                data-testid="storages-table"
                rows={list}
                rowKey={(storage) => storage.name}
                columns={STORAGE_COLUMNS}
              />
            )}
          </QueryState>
        </Stack>
      )}
    </QueryState>
  );
}

import { Busy } from '@app/web-kit';
import { Alert, Badge, Text, Tooltip } from '@mantine/core';
import { useNodeStats } from '../../api/fleet.ts';
import { formatBytes } from '../../components/common.tsx';
import type { NodeStats } from '../../api/types.ts';

/** What a node answered when its connection was tried: its size, or why it could not be asked. */
export function NodeConnectionResult({ stats, saveAnyway }: { stats: NodeStats; saveAnyway: boolean }) {
  if (!stats.available) {
    return (
      <Alert
        color="red"
        title="The node cannot be reached"
        data-testid="node-test-result"
        data-available="false"
      >
        <Text size="sm">{stats.reason ?? 'No answer.'}</Text>
        {saveAnyway ? (
          <Text size="sm" mt={4}>
            Check the address, the credentials and the TLS settings, or save anyway: containers cannot be
            created on it until it answers.
          </Text>
        ) : null}
      </Alert>
    );
  }
  const parts = [
    stats.cpu ? `${stats.cpu.cores} CPU cores` : undefined,
    stats.memory ? `${formatBytes(stats.memory.total)} memory` : undefined,
    stats.containers
      ? `${stats.containers.running} of ${stats.containers.total} containers running`
      : undefined,
  ].filter(Boolean);
  return (
    <Alert color="green" title="Connected" data-testid="node-test-result" data-available="true">
      <Text size="sm">{parts.length ? parts.join(' · ') : 'The node answered.'}</Text>
    </Alert>
  );
}

/** Whether a saved node answers now (asked once a minute), with why not on hover. */
export function NodeOnlineBadge({ siteId, nodeId }: { siteId: number; nodeId: number }) {
  const stats = useNodeStats(siteId, nodeId, 60_000);
  if (stats.isPending) return <Busy size="xs" label="Asking the node" />;
  const online = stats.data?.available === true;
  const reason = stats.data?.reason ?? (stats.isError ? 'The manager could not ask the node.' : '');
  return (
    <Tooltip label={reason} disabled={online || !reason} multiline w={320}>
      <Badge color={online ? 'green' : 'red'} variant="light" data-online={online}>
        {online ? 'online' : 'offline'}
      </Badge>
    </Tooltip>
  );
}

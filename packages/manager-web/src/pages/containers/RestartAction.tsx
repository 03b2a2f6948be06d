import { Alert, Button, Group, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useRestartContainer } from '../../api/containers.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Container } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmAction.tsx';
import { noInstanceReason } from './ContainerJobs.tsx';

interface RestartProps {
  siteId: number;
  container: Container;
  /** Called with the restart job's id once it is queued. */
  onQueued: (jobId: number) => void;
}

/** Restart, asked first (its services go away for a moment); disabled with the reason when it cannot work. */
export function RestartButton({
  siteId,
  container,
  onQueued,
  label = 'Restart',
}: RestartProps & { label?: string }) {
  const [asking, setAsking] = useState(false);
  const noInstance = noInstanceReason(container);
  const restart = useRestartContainer(siteId);
  const restartNow = () =>
    restart.mutate(container.id, {
      onSuccess: (result) => {
        setAsking(false);
        showSuccess(result.message || 'Restarting');
        if (result.jobId) onQueued(result.jobId);
      },
      onError: (error) => showError(error),
    });
  return (
    <>
      <Tooltip label={noInstance ?? ''} disabled={!noInstance}>
        <Button
          variant="default"
          disabled={Boolean(noInstance)}
          onClick={() => setAsking(true)}
          data-testid="restart"
        >
          {label}
        </Button>
      </Tooltip>
      <ConfirmDialog
        opened={asking}
        title={`Restart ${container.hostname}`}
        question={
          container.restartPending
            ? `Restart ${container.hostname}? The saved changes are applied; its services are unavailable for a moment.`
            : `Restart ${container.hostname}? Its services are unavailable for a moment.`
        }
        confirmLabel="Restart"
        pending={restart.isPending}
        onConfirm={restartNow}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

/** Saved environment or entrypoint changes that wait for a restart, with the restart to apply them. */
export function RestartPendingNotice(props: RestartProps & { canManage: boolean }) {
  if (!props.container.restartPending) return null;
  return (
    <Alert color="yellow" title="Changes wait for a restart" data-testid="restart-pending">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">
          The saved environment or entrypoint takes effect when {props.container.hostname} restarts.
        </Text>
        {props.canManage ? <RestartButton {...props} label="Restart now" /> : null}
      </Group>
    </Alert>
  );
}

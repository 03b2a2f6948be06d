import { Button } from '@mantine/core';
import { useState } from 'react';
import { useContainerPower } from '../../api/containers.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Container } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmAction.tsx';

interface PowerProps {
  siteId: number;
  container: Container;
  /** Called with the start or stop job's id once it is queued. */
  onQueued: (jobId: number) => void;
}

/**
 * Stop for a running container (asked first: its services go away), Start for a stopped one; nothing
 * while its state is not known (being created, failed, missing, node out of reach).
 */
export function PowerButtons({ siteId, container, onQueued }: PowerProps) {
  const [asking, setAsking] = useState(false);
  const power = useContainerPower(siteId);
  const run = (action: 'start' | 'stop') =>
    power.mutate(
      { id: container.id, action },
      {
        onSuccess: (result) => {
          setAsking(false);
          showSuccess(`${action === 'start' ? 'Starting' : 'Stopping'} ${container.hostname}`);
          onQueued(result.jobId);
        },
        onError: (error) => showError(error),
      },
    );
  if (container.status === 'offline') {
    return (
      <Button variant="default" loading={power.isPending} onClick={() => run('start')} data-testid="start">
        Start
      </Button>
    );
  }
  if (container.status !== 'running') return null;
  return (
    <>
      <Button variant="default" onClick={() => setAsking(true)} data-testid="stop">
        Stop
      </Button>
      <ConfirmDialog
        opened={asking}
        title={`Stop ${container.hostname}`}
        question={`Stop ${container.hostname}? Its services are unavailable until it is started again.`}
        confirmLabel="Stop"
        pending={power.isPending}
        onConfirm={() => run('stop')}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

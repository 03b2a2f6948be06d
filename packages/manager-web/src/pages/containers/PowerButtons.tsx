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

/** Queues a start or stop of the container, said in a toast; `queued` runs first once it is. */
function usePower({ siteId, container, onQueued }: PowerProps) {
  const power = useContainerPower(siteId);
  const run = (action: 'start' | 'stop', queued?: () => void) =>
    power.mutate(
      { id: container.id, action },
      {
        onSuccess: (result) => {
          queued?.();
          showSuccess(`${action === 'start' ? 'Starting' : 'Stopping'} ${container.hostname}`);
          onQueued(result.jobId);
        },
        onError: (error) => showError(error),
      },
    );
  return { run, pending: power.isPending };
}

/** Start for a stopped container; `testId` tells apart another Start than the page header's. */
export function StartButton({ testId = 'start', ...props }: PowerProps & { testId?: string }) {
  const { run, pending } = usePower(props);
  return (
    <Button variant="default" loading={pending} onClick={() => run('start')} data-testid={testId}>
      Start
    </Button>
  );
}

/**
 * Stop for a running container (asked first: its services go away), Start for a stopped one; nothing
 * while its state is not known (being created, failed, missing, node out of reach).
 */
export function PowerButtons(props: PowerProps) {
  const { container } = props;
  const [asking, setAsking] = useState(false);
  const { run, pending } = usePower(props);
  if (container.status === 'offline') return <StartButton {...props} />;
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
        pending={pending}
        onConfirm={() => run('stop', () => setAsking(false))}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

import { Button, List, Text } from '@mantine/core';
import { Modal } from '@app/web-kit';
import { useState } from 'react';
import { useDeleteContainer, useRestartContainer } from '../../api/containers.ts';
import type { Container } from '../../api/types.ts';
import { ConfirmAction } from '../../components/ConfirmAction.tsx';
import { noInstanceReason } from './ContainerJobs.tsx';
import { plural } from '../../components/plural.ts';

interface Outcome {
  hostname: string;
  ok: boolean;
  message: string;
}

interface Action {
  name: 'Restart' | 'Delete';
  /** Runs on one container; answers what happened to it, or throws why it failed. */
  run: (container: Container) => Promise<string>;
}

const containers = (n: number) => plural(n, 'container');

/**
 * Restart or delete the selected containers: one confirmation naming how many, then each container in
 * turn, and what happened to each.
 */
export function BulkActions({
  siteId,
  selected,
  clear,
}: {
  siteId: number;
  selected: Container[];
  clear: () => void;
}) {
  const restart = useRestartContainer(siteId);
  const remove = useDeleteContainer(siteId);
  const [action, setAction] = useState<Action | null>(null);
  // What the dialog acts on, kept as chosen: deleted rows leave the selection while it runs.
  const [targets, setTargets] = useState<Container[]>([]);
  const [running, setRunning] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);

  const actions: Action[] = [
    {
      name: 'Restart',
      run: async (container) => {
        const reason = noInstanceReason(container);
        if (reason) throw new Error(reason);
        const answer = await restart.mutateAsync(container.id);
        return answer.message || 'Restarting';
      },
    },
    {
      name: 'Delete',
      run: async (container) => {
        const answer = await remove.mutateAsync(container.id);
        return ['Deleted', ...(answer?.dnsWarnings ?? [])].join('. ');
      },
    },
  ];

  const go = async (chosen: Action) => {
    setRunning(true);
    const done: Outcome[] = [];
    // One at a time: a node is not asked to restart or delete hundreds of instances at once.
    for (const container of targets) {
      try {
        done.push({ hostname: container.hostname, ok: true, message: await chosen.run(container) });
      } catch (error) {
        done.push({ hostname: container.hostname, ok: false, message: (error as Error).message });
      }
    }
    setRunning(false);
    setOutcomes(done);
    clear();
  };
  const close = () => {
    setAction(null);
    setOutcomes(null);
  };

  return (
    <>
      {actions.map((a) => (
        <Button
          key={a.name}
          size="xs"
          variant={a.name === 'Delete' ? 'outline' : 'default'}
          color={a.name === 'Delete' ? 'red' : undefined}
          disabled={selected.length === 0}
          onClick={() => {
            setTargets(selected);
            setAction(a);
          }}
        >
          {selected.length ? `${a.name} ${containers(selected.length)}` : `${a.name} selected`}
        </Button>
      ))}
      <Modal
        opened={action !== null}
        onClose={running ? () => undefined : close}
        title={outcomes ? `${action?.name}: results` : `${action?.name} ${containers(targets.length)}?`}
        centered
      >
        {outcomes ? (
          <>
            <List spacing={4} size="sm" data-testid="bulk-results">
              {outcomes.map((o) => (
                <List.Item key={o.hostname} data-ok={o.ok}>
                  <Text span fw={600} size="sm">
                    {o.hostname}
                  </Text>
                  :{' '}
                  <Text span size="sm" c={o.ok ? undefined : 'red'}>
                    {o.message}
                  </Text>
                </List.Item>
              ))}
            </List>
            <Button mt="md" onClick={close}>
              Close
            </Button>
          </>
        ) : action ? (
          <ConfirmAction
            question={`${action.name} ${containers(targets.length)}: ${targets
              .slice(0, 5)
              .map((c) => c.hostname)
              .join(', ')}${targets.length > 5 ? '…' : ''}?`}
            confirmLabel={`${action.name} ${containers(targets.length)}`}
            pending={running}
            onConfirm={() => void go(action)}
            onCancel={close}
          />
        ) : null}
      </Modal>
    </>
  );
}

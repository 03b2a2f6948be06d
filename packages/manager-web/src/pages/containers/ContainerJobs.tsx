import { Alert, Anchor, Button, Card, Code, Group, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useContainerJobs, useRetryCreate } from '../../api/containers.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Container } from '../../api/types.ts';
import { EmptyState, formatDate, StatusBadge } from '../../components/common.tsx';

const COMMAND_LABELS: Record<string, string> = {
  'container.create': 'Create',
  'container.apply': 'Change / restart',
  'container.delete': 'Delete',
  'container.start': 'Start',
  'container.stop': 'Stop',
  'container.exec': 'Command',
};

const NO_INSTANCE: Partial<Record<Container['status'], string>> = {
  creating: 'The container is being created: wait for its create job.',
  failed: 'The create failed: there is nothing to restart. Retry the create or delete the container.',
};

/** Why a restart cannot work on this container now, or undefined when it can. */
export const noInstanceReason = (container: Container): string | undefined => NO_INSTANCE[container.status];

/** A panel of the container page; `canManage`: the viewer may change the container. */
export interface ContainerPanelProps {
  siteId: number;
  container: Container;
  canManage: boolean;
}

/** Why a create failed (the end of its log), with Retry; Delete stays in the page header. */
export function FailedCreate({ siteId, container, canManage }: ContainerPanelProps) {
  const jobs = useContainerJobs(siteId, container.id);
  const job = jobs.data?.find((entry) => entry.id === container.creationJobId);
  const retry = useRetryCreate(siteId);
  return (
    <Alert color="red" title="The create of this container failed" data-testid="failed-create">
      <Text size="sm" mb="xs">
        Nothing runs on node {container.nodeName ?? '—'}. Retry the create, or delete the container.
      </Text>
      {job?.lastOutput?.length ? (
        <Code block data-testid="failed-log" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {job.lastOutput.join('\n')}
        </Code>
      ) : null}
      <Group mt="sm" gap="sm">
        {container.creationJobId ? (
          <Anchor component={Link} to={`/jobs/${container.creationJobId}`} size="sm">
            Job #{container.creationJobId}
          </Anchor>
        ) : null}
        {canManage ? (
          <Button
            size="xs"
            color="red"
            loading={retry.isPending}
            onClick={() =>
              retry.mutate(container.id, {
                onSuccess: () => showSuccess(`Creating ${container.hostname} again`),
                onError: (error) => showError(error),
              })
            }
          >
            Retry
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}

/** The container's recent jobs, each linking to its log. */
export function ContainerJobHistory({ siteId, container }: { siteId: number; container: Container }) {
  const jobs = useContainerJobs(siteId, container.id);
  const list = jobs.data ?? [];
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        Jobs
      </Title>
      {list.length === 0 ? (
        <EmptyState title="No jobs" />
      ) : (
        <Table fz="sm" data-testid="container-jobs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Job</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th visibleFrom="sm">Finished</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((job) => (
              <Table.Tr key={job.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/jobs/${job.id}`} size="sm">
                    #{job.id}
                  </Anchor>
                </Table.Td>
                <Table.Td>{COMMAND_LABELS[job.command] ?? job.command}</Table.Td>
                <Table.Td>
                  <StatusBadge status={job.status} />
                </Table.Td>
                <Table.Td>{formatDate(job.createdAt)}</Table.Td>
                {/* On a phone four columns fit; the end time is on the job's page. */}
                <Table.Td visibleFrom="sm">{formatDate(job.finishedAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

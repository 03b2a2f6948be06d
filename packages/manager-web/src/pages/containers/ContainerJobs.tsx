import { DataTable, type Column } from '@app/web-kit';
import { Alert, Anchor, Button, Card, Code, Group, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useContainerJobs, useRetryCreate } from '../../api/containers.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Container } from '../../api/types.ts';
import { EmptyState, formatDate, StatusBadge } from '../../components/common.tsx';
import { jobPath } from './job-path.ts';

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
          <Anchor component={Link} to={jobPath(container.creationJobId, siteId, container.id)} size="sm">
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

type ContainerJob = NonNullable<ReturnType<typeof useContainerJobs>['data']>[number];

const jobColumns = (siteId: number, containerId: number): Array<Column<ContainerJob>> => [
  {
    key: 'id',
    header: 'Job',
    phone: 'title',
    cell: (job) => (
      <Anchor component={Link} to={jobPath(job.id, siteId, containerId)} size="sm">
        #{job.id}
      </Anchor>
    ),
  },
  { key: 'what', header: 'What', cell: (job) => COMMAND_LABELS[job.command] ?? job.command },
  { key: 'status', header: 'Status', cell: (job) => <StatusBadge status={job.status} /> },
  { key: 'started', header: 'Started', cell: (job) => formatDate(job.createdAt) },
  // On a phone the end time is on the job's page.
  { key: 'finished', header: 'Finished', phone: 'hidden', cell: (job) => formatDate(job.finishedAt) },
];

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
        <DataTable
          data-testid="container-jobs"
          rows={list}
          rowKey={(job) => job.id}
          columns={jobColumns(siteId, container.id)}
        />
      )}
    </Card>
  );
}

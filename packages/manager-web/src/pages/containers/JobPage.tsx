import { Button, Group, Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { showError } from '../../api/errors.ts';
import { useCancelJob, useInvalidateJob, useJob } from '../../api/jobs.ts';
import { formatDate, PageHeader, QueryState, StatusBadge } from '../../components/common.tsx';
import { JobLog } from './JobLog.tsx';

export function JobPage() {
  const id = Number(useParams().id);
  const job = useJob(id);
  const cancel = useCancelJob(id);
  const refresh = useInvalidateJob(id);
  return (
    <QueryState query={job} isEmpty={() => false}>
      {(j) => (
        <Stack>
          <PageHeader title={`Job #${j.id}`}>
            {j.status === 'pending' || j.status === 'running' ? (
              <Button
                color="red"
                variant="light"
                loading={cancel.isPending}
                onClick={() => cancel.mutate(undefined, { onError: (error) => showError(error) })}
              >
                Cancel job
              </Button>
            ) : null}
          </PageHeader>
          <Group gap="lg">
            <StatusBadge status={j.status} />
            <Text size="sm">{j.command}</Text>
            <Text size="sm" c="dimmed">
              by {j.createdBy}, {formatDate(j.createdAt)}
            </Text>
          </Group>
          <JobLog jobId={id} onFinished={refresh} />
        </Stack>
      )}
    </QueryState>
  );
}

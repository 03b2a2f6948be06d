import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { showError } from '../../api/errors.ts';
import { formatDate, PageHeader, QueryState, StatusBadge } from '../../components/common.tsx';
import { JobLog } from './JobLog.tsx';

export function JobPage() {
  const id = Number(useParams().id);
  const client = useQueryClient();
  const job = useQuery({ queryKey: ['jobs', id], queryFn: () => api.get('/jobs/{id}', { path: { id } }) });
  const cancel = useMutation({
    mutationFn: () => api.post('/jobs/{id}/cancel', { path: { id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['jobs', id] }),
    onError: (error) => showError(error),
  });
  return (
    <QueryState query={job} isEmpty={() => false}>
      {(j) => (
        <Stack>
          <PageHeader title={`Job #${j.id}`}>
            {j.status === 'pending' || j.status === 'running' ? (
              <Button color="red" variant="light" loading={cancel.isPending} onClick={() => cancel.mutate()}>
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
          <JobLog jobId={id} onFinished={() => void client.invalidateQueries({ queryKey: ['jobs', id] })} />
        </Stack>
      )}
    </QueryState>
  );
}

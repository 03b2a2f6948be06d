import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { useContainer } from '../../api/containers.ts';
import { showError } from '../../api/errors.ts';
import { useCancelJob, useInvalidateJob, useJob } from '../../api/jobs.ts';
import { formatDate, PageHeader, QueryState, StatusBadge } from '../../components/common.tsx';
import { JobLog } from './JobLog.tsx';
import { jobContainer } from './job-path.ts';

/** Back to the container the job works on, whose page lists its other jobs. */
function ContainerLink({ siteId, id }: { siteId: number; id: number }) {
  const container = useContainer(siteId, id);
  return (
    <Anchor component={Link} to={`/sites/${siteId}/containers/${id}`} size="sm">
      ← {container.data ? `Container ${container.data.hostname}` : 'The container'} and its jobs
    </Anchor>
  );
}

export function JobPage() {
  const id = Number(useParams().id);
  const [params] = useSearchParams();
  const from = jobContainer(params);
  const job = useJob(id);
  const cancel = useCancelJob(id);
  const refresh = useInvalidateJob(id);
  return (
    <Stack>
      <Group gap="lg" data-testid="job-links">
        {from ? <ContainerLink {...from} /> : null}
        <Anchor component={Link} to="/activity" size="sm">
          My activity
        </Anchor>
      </Group>
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
    </Stack>
  );
}

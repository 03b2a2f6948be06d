import { Button, Card, Group, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useContainerExec } from '../../api/containers.ts';
import { errorMessage } from '../../api/errors.ts';
import { useJob } from '../../api/jobs.ts';
import type { Container } from '../../api/types.ts';
import { JobLog } from './JobLog.tsx';

/** The exit code of a finished exec job, once its record says. */
function ExitCode({ jobId }: { jobId: number }) {
  const exitCode = useJob(jobId).data?.result?.exitCode;
  if (exitCode === undefined) return null;
  return (
    <Text size="sm" fw={600} c={exitCode === 0 ? 'green' : 'red'} data-testid="exit-code" role="status">
      Exit code {exitCode}
    </Text>
  );
}

/**
 * Runs one command in the running container without a terminal (owner and administrators: the
 * caller shows it only to them), its output streamed as the job writes it.
 */
export function RunCommand({ siteId, container }: { siteId: number; container: Container }) {
  const [command, setCommand] = useState('');
  const [timeout, setTimeoutSeconds] = useState<number | string>(60);
  const [error, setError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [ended, setEnded] = useState<number | null>(null);
  const exec = useContainerExec(siteId, container.id);
  const running = container.status === 'running';
  const run = () => {
    setError(null);
    exec.mutate(
      { command, timeout: Number(timeout) || undefined },
      { onSuccess: (queued) => setJobId(queued.jobId), onError: (e) => setError(errorMessage(e)) },
    );
  };
  return (
    <Card withBorder data-testid="run-command">
      <Title order={3} size="h5" mb="xs">
        Run a command
      </Title>
      {running ? null : (
        <Text size="sm" c="dimmed" mb="xs">
          {container.hostname} is not running: start it to run a command.
        </Text>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (command.trim()) run();
        }}
      >
        <Stack gap="xs">
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              label="Command"
              description="Run by sh -c, without a terminal"
              placeholder="uptime"
              ff="monospace"
              value={command}
              error={error}
              disabled={!running}
              onChange={(event) => setCommand(event.currentTarget.value)}
              style={{ flex: '1 1 16rem' }}
            />
            <NumberInput
              label="Timeout (seconds)"
              min={1}
              max={3600}
              value={timeout}
              disabled={!running}
              onChange={setTimeoutSeconds}
              w="10rem"
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={exec.isPending} disabled={!running || !command.trim()}>
              Run
            </Button>
          </Group>
        </Stack>
      </form>
      {jobId ? (
        <Stack gap="xs" mt="sm">
          <JobLog
            key={jobId}
            jobId={jobId}
            // Read only once ended: the record carries the exit code from then on.
            onFinished={() => setEnded(jobId)}
          />
          {ended === jobId ? <ExitCode jobId={jobId} /> : null}
        </Stack>
      ) : null}
    </Card>
  );
}

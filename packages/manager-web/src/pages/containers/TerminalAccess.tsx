import { Button, Popover, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../../api/session.ts';
import type { Container } from '../../api/types.ts';
import { StartButton } from './PowerButtons.tsx';

interface AccessProps {
  siteId: number;
  container: Container;
  /** Called with the start job's id once it is queued. */
  onQueued: (jobId: number) => void;
}

/** Why a stopped container has no terminal, with Start for those who may start it (owner, admins). */
export function TerminalStopped({ siteId, container, onQueued }: AccessProps) {
  const session = useSession();
  const mayStart = Boolean(session.data?.isAdmin) || container.owner === session.data?.user;
  return (
    <Stack gap="xs" align="flex-start" data-testid="terminal-stopped">
      <Text size="sm">
        {container.hostname} is stopped: a terminal needs it running.
        {mayStart ? ' Start it, then open the terminal.' : ` Ask ${container.owner} to start it.`}
      </Text>
      {mayStart ? (
        <StartButton siteId={siteId} container={container} onQueued={onQueued} testId="terminal-start" />
      ) : null}
    </Stack>
  );
}

/** The container page's Terminal: a link to the shell, or, while it is stopped, why not. */
export function TerminalButton(props: AccessProps) {
  const { siteId, container } = props;
  if (container.status === 'offline') {
    return (
      <Popover width={280} position="bottom" withArrow shadow="md" trapFocus>
        <Popover.Target>
          <Button variant="default">Terminal</Button>
        </Popover.Target>
        <Popover.Dropdown>
          <TerminalStopped {...props} />
        </Popover.Dropdown>
      </Popover>
    );
  }
  return (
    <Button variant="default" component={Link} to={`/sites/${siteId}/containers/${container.id}/terminal`}>
      Terminal
    </Button>
  );
}

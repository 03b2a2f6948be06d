import { Button, Group, Text } from '@mantine/core';
import { Modal } from '@app/web-kit';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * While `dirty`, asks before the dashboard leaves the page (the router's blocker) and has the browser
 * ask before the tab is closed or reloaded (`beforeunload`).
 */
export function LeaveGuard({ dirty, unsaved }: { dirty: boolean; unsaved: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  const stay = () => blocker.reset?.();
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={stay} title="Leave without saving?">
      <Text size="sm">{unsaved}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={stay}>
          Keep editing
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </Group>
    </Modal>
  );
}

import { Center, Group, Loader, Text } from '@mantine/core';
import { errorMessage } from '@app/web-kit';

// What the first load (the shell and the sign-in page) needs from the shared helpers; the rest is in
// common.tsx, loaded with the pages.

export { errorMessage };

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="xs">
        <Loader size="sm" />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

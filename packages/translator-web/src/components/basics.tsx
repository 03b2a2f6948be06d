import { Center, Group, Loader, Text } from '@mantine/core';
import { ApiError } from '../api.ts';

// What the first load (the shell and the sign-in page) needs from the shared helpers; the rest is in
// common.tsx, loaded with the pages.

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

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

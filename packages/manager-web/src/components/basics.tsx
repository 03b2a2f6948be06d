import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.ts';
import { errorMessage } from '../api/errors.ts';

// What the first load (the shell, the router's fallback page) needs from the shared helpers; the rest is
// in common.tsx, loaded with the pages.

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Center py="xl" data-testid="empty-state">
      <Stack align="center" gap="xs" maw={480}>
        <Text fw={600}>{title}</Text>
        {children ? (
          <Text c="dimmed" ta="center" size="sm" component="div">
            {children}
          </Text>
        ) : null}
      </Stack>
    </Center>
  );
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const missing = error instanceof ApiError && error.missingEndpoint;
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <Alert
      color={missing ? 'gray' : 'red'}
      title={
        missing
          ? 'Not available on this server yet'
          : forbidden
            ? 'You do not have access to this page'
            : 'Could not load this page'
      }
      data-testid="error-state"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {missing
            ? 'This manager does not offer this part of the API yet. It appears here once the server is updated.'
            : errorMessage(error)}
        </Text>
        {retry && !missing && !forbidden ? (
          <Button size="xs" variant="light" onClick={retry}>
            Try again
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

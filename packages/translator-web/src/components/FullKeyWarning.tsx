import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Project } from '../api.ts';
import { errorMessage } from './basics.tsx';
import { projectKeys } from '../data/project.ts';
import { useAuth } from '../auth.tsx';

/**
 * Shown on every page while the server has seen the full key used from a web page (until dismissed or
 * the key is regenerated): a key in a page is a key anyone can read.
 */
export function FullKeyWarning({ seen }: { seen: NonNullable<Project['full_key_used_from']> }) {
  const queryClient = useQueryClient();
  const manage = useAuth().can('manage');
  const [problem, setProblem] = useState<string | null>(null);
  const dismiss = async () => {
    try {
      queryClient.setQueryData(projectKeys.project, await api.delete('/project/full-key-warning'));
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  return (
    <Alert
      color="orange"
      mb="md"
      role="alert"
      title="The full key was used from a web page"
      data-testid="full-key-warning"
    >
      <Text size="sm">
        Your full key was used from {seen.origin} ({new Date(seen.at).toLocaleString()}); use the page key in
        pages (see{' '}
        <Anchor component={Link} to="/install">
          Install
        </Anchor>
        ), and regenerate the full key if that page is public.
      </Text>
      {problem && (
        <Text size="sm" c="red" mt="xs">
          {problem}
        </Text>
      )}
      {manage && (
        <Group mt="xs">
          <Button size="xs" variant="light" color="orange" onClick={() => void dismiss()}>
            Dismiss
          </Button>
        </Group>
      )}
    </Alert>
  );
}

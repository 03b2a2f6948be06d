import { ConfirmButton, Modal } from '@app/web-kit';
import { Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { useAuth } from '../auth.tsx';
import { notifyError, notifyOk } from '../components/common.tsx';
import { projectKeys } from '../data/project.ts';

function CopyKey({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button variant="light" onClick={copy}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}

/** The publishable page key: shown, copied, regenerated on its own (by a role that may). */
export function PageKeyPanel({ pageKey, regenerable }: { pageKey: string; regenerable: boolean }) {
  const queryClient = useQueryClient();
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h4">
          Page key
        </Title>
        <Text size="sm" c="dimmed">
          The key in your pages’ script tag (see Install). It is public by design: it only registers phrases
          and reads approved translations, from the allowed origins above.
        </Text>
        <Code block data-testid="page-key">
          {pageKey}
        </Code>
        <Group>
          <CopyKey value={pageKey} label="Copy page key" />
          {regenerable && (
            <ConfirmButton
              title="Regenerate the page key?"
              message="The current page key stops working immediately: pages keep their text untranslated and register nothing until their script tag has the new key."
              confirmLabel="Regenerate page key"
              onConfirm={async () => {
                try {
                  const project = await api.post('/project/regenerate-page-key');
                  queryClient.setQueryData(projectKeys.project, project);
                  notifyOk('New page key: update your pages’ script tag');
                } catch (error) {
                  notifyError(error);
                }
              }}
            >
              Regenerate page key
            </ConfirmButton>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The full API key: never shown here except once after a regeneration. */
export function FullKeyPanel() {
  const queryClient = useQueryClient();
  const { switchKey } = useAuth();
  const [newKey, setNewKey] = useState<string | null>(null);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h4">
          Full API key
        </Title>
        <Text size="sm" c="dimmed">
          The key you signed in with: it can change and delete everything, so keep it secret and never put it
          in a page. Regenerating stops the current key at once, for this dashboard and every API client.
        </Text>
        <Group>
          <ConfirmButton
            title="Regenerate the API key?"
            message="The current key stops working immediately, for every API client that uses it. This dashboard switches to the new key."
            confirmLabel="Regenerate key"
            onConfirm={async () => {
              try {
                const project = await api.post('/project/regenerate-key');
                switchKey(project.api_key);
                queryClient.setQueryData(projectKeys.project, project);
                setNewKey(project.api_key);
              } catch (error) {
                notifyError(error);
              }
            }}
          >
            Regenerate API key
          </ConfirmButton>
        </Group>
      </Stack>
      <Modal opened={!!newKey} onClose={() => setNewKey(null)} title="New API key" centered>
        <Stack>
          <Text size="sm">This dashboard now uses the new key. Copy it now for your API clients.</Text>
          <Code block data-testid="new-api-key">
            {newKey}
          </Code>
          <Group justify="flex-end">
            <CopyKey value={newKey ?? ''} label="Copy key" />
            <Button onClick={() => setNewKey(null)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

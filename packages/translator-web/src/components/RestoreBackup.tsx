import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Modal } from '@app/web-kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type RestorePreview } from '../api.ts';
import { errorMessage, notifyOk } from './common.tsx';

const restore = (filename: string, dryRun: boolean) =>
  api.post('/backups/{filename}/restore', { path: { filename }, query: { dryRun } });

/** How the project's phrases and translations compare with a backup's, in words. */
function Summary({ preview }: { preview: RestorePreview }) {
  const { phrases, translations } = preview;
  return (
    <Text size="sm" data-testid="restore-summary">
      Phrases: {phrases.current} now, {phrases.restored} after ({phrases.added} back, {phrases.removed} gone).
      Translations: {translations.current} now, {translations.restored} after ({translations.added} back,{' '}
      {translations.removed} gone, {translations.changed} changed).
    </Text>
  );
}

/**
 * A backup's Restore button: it first shows what restoring would change (the translations that differ,
 * now → after), and restores only once that is confirmed. The project's keys stay as they are.
 */
export function RestoreBackup({ filename }: { filename: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const preview = useMutation({ mutationFn: () => restore(filename, true) });
  const apply = useMutation({
    mutationFn: () => restore(filename, false),
    onSuccess: async () => {
      setOpen(false);
      notifyOk(`Restored from ${filename}`);
      // Every page of the dashboard shows the project's data: all of it is stale.
      await queryClient.invalidateQueries();
    },
  });
  const show = () => {
    setOpen(true);
    apply.reset();
    preview.mutate();
  };
  return (
    <>
      <Button size="xs" variant="default" aria-label={`Restore ${filename}`} onClick={show}>
        Restore…
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Restore ${filename}?`} size="lg">
        <Stack gap="sm">
          {preview.isPending && <Text size="sm">Comparing the backup with the project…</Text>}
          {preview.error && (
            <Alert color="red" role="alert">
              {errorMessage(preview.error)}
            </Alert>
          )}
          {preview.data && (
            <>
              <Text size="sm">
                The project’s phrases, translations, prompts, glossary and AI jobs become those of the backup
                (“{preview.data.name}”). Its API key and page key stay as they are.
              </Text>
              <Summary preview={preview.data} />
              {preview.data.changes.length > 0 && (
                <Table
                  striped
                  withTableBorder
                  data-testid="restore-changes"
                  aria-label="Translations that change"
                >
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Phrase</Table.Th>
                      <Table.Th>Language</Table.Th>
                      <Table.Th>Now</Table.Th>
                      <Table.Th>After</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {preview.data.changes.map((change) => (
                      <Table.Tr key={`${change.key}\u0000${change.lang}`}>
                        <Table.Td>{change.key}</Table.Td>
                        <Table.Td>{change.lang}</Table.Td>
                        <Table.Td>{change.current ?? '(none)'}</Table.Td>
                        <Table.Td>{change.restored ?? '(none)'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {apply.error && (
                <Alert color="red" role="alert">
                  {errorMessage(apply.error)}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button color="red" loading={apply.isPending} onClick={() => apply.mutate()}>
                  Restore this backup
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}

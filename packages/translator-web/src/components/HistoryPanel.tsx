import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type HistoryEntry } from '../api.ts';
import { rowKeys, useHistory } from '../data/phrases.ts';
import { analyticsKeys } from '../data/analytics.ts';
import { notifyError, notifyOk, QueryView } from './common.tsx';
import { StateChip } from './TranslationState.tsx';
import { useAuth } from '../auth.tsx';

const SOURCE_LABEL: Record<HistoryEntry['source'], string> = {
  human: 'edited',
  ai: 'AI job',
  import: 'imported',
  memory: 'from memory',
  revert: 'reverted',
  carried: 'carried over from a changed text',
};

/** The changes of one translation, newest first, each with a button that undoes it. */
export function HistoryPanel({ phraseId, lang, label }: { phraseId: number; lang: string; label: string }) {
  const queryClient = useQueryClient();
  const mayRevert = useAuth().can('translate');
  const history = useHistory(phraseId, lang);
  const revert = useMutation({
    mutationFn: (id: number) => api.post('/translations/history/{id}/revert', { path: { id } }),
    onSuccess: async (result) => {
      notifyOk(result.changed ? 'Change reverted' : 'Nothing to revert: the translation is already so');
      await queryClient.invalidateQueries({ queryKey: rowKeys.all });
      await queryClient.invalidateQueries({ queryKey: analyticsKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Paper withBorder p="xs" mt={4} aria-label={`History of ${label}`} role="region">
      <QueryView query={history} label="Loading history…">
        {({ entries }) =>
          entries.length === 0 ? (
            <Text size="sm" c="dimmed">
              No changes recorded yet.
            </Text>
          ) : (
            <Stack gap={6} data-testid="history-entries">
              {entries.map((entry) => (
                <Group key={entry.id} gap="xs" wrap="nowrap" align="flex-start" data-testid="history-entry">
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="xs" c="dimmed">
                      {new Date(entry.createdAt).toLocaleString()} · {SOURCE_LABEL[entry.source]} by{' '}
                      {entry.actor}
                    </Text>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      <Text span td="line-through" c="dimmed">
                        {entry.oldValue ?? '(none)'}
                      </Text>{' '}
                      → {entry.newValue ?? '(deleted)'}{' '}
                      {entry.newState && <StateChip state={entry.newState} />}
                    </Text>
                  </Stack>
                  {mayRevert && (
                    <Button
                      size="compact-xs"
                      variant="light"
                      loading={revert.isPending && revert.variables === entry.id}
                      onClick={() => revert.mutate(entry.id)}
                      aria-label={`Revert the change to "${entry.newValue ?? '(deleted)'}"`}
                    >
                      Revert
                    </Button>
                  )}
                </Group>
              ))}
            </Stack>
          )
        }
      </QueryView>
    </Paper>
  );
}

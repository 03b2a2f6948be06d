import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { Modal } from '@app/web-kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Row, type VarSlot } from '../api.ts';
import { errorMessage, fieldError, notifyOk } from './common.tsx';
import { SlotKey, slotsOf, slotToken } from './SlotKey.tsx';
import { rowKeys } from '../data/phrases.ts';

const sameSlot = (a: VarSlot, b: VarSlot) => a.type === b.type && a.index === b.index;

/**
 * Edits a phrase's key. varSlots are derived from the `{{type:N}}` tokens of the new key, so the two stay
 * consistent; removed or added slots are pointed out before saving.
 */
export function KeyEditor({ row, onClose }: { row: Row; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [key, setKey] = useState(row.key);
  const slots = slotsOf(key);
  const removed = row.varSlots.filter((slot) => !slots.some((s) => sameSlot(s, slot)));
  const added = slots.filter((slot) => !row.varSlots.some((s) => sameSlot(s, slot)));
  const save = useMutation({
    mutationFn: () =>
      api.patch('/phrases/{id}', { path: { id: row.id }, body: { key: key.trim(), varSlots: slots } }),
    onSuccess: async () => {
      notifyOk('Key saved');
      await queryClient.invalidateQueries({ queryKey: rowKeys.all });
      onClose();
    },
  });
  const keyError = fieldError(save.error, 'key', 'varSlots');
  return (
    <Modal opened onClose={onClose} title="Edit phrase key" size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <Textarea
            label="Key"
            description="Slots such as {{number:0}} and {{text:0}} are filled with the page's live values."
            autosize
            minRows={2}
            value={key}
            onChange={(event) => setKey(event.currentTarget.value)}
            error={keyError}
            data-autofocus
          />
          {row.varSlots.length > 0 && (
            <Group gap={4}>
              <Text size="xs" c="dimmed">
                Insert slot:
              </Text>
              {row.varSlots.map((slot) => (
                <Button
                  key={slotToken(slot)}
                  size="compact-xs"
                  variant="light"
                  onClick={() => setKey((current) => current + slotToken(slot))}
                >
                  {slotToken(slot)}
                </Button>
              ))}
            </Group>
          )}
          <div>
            <Text size="xs" c="dimmed" mb={4}>
              Preview
            </Text>
            <SlotKey text={key} />
          </div>
          {row.context && (
            <Text size="xs" c="dimmed">
              Context: {row.context}
            </Text>
          )}
          {(removed.length > 0 || added.length > 0) && (
            <Alert color="yellow" title="Slots change">
              {removed.length > 0 && <div>Removed: {removed.map(slotToken).join(' ')}</div>}
              {added.length > 0 && <div>Added: {added.map(slotToken).join(' ')}</div>}
              Existing translations must contain the same slots to be delivered.
            </Alert>
          )}
          {save.error && !keyError && (
            <Alert color="red" role="alert">
              {errorMessage(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!key.trim() || key === row.key}>
              Save key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

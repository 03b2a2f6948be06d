import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, query } from '../../api/client.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { User } from '../../api/types.ts';

/**
 * Deletes a user after asking. A user who still owns containers is refused (409 has_containers, its
 * message naming them); the dialog then offers to give the containers to another active user.
 */
export function DeleteUserButton({ user, users }: { user: User; users: User[] }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [owned, setOwned] = useState<string | null>(null);
  const [heir, setHeir] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (reassignTo: string | null) => api.delete(`/users/${user.uidNumber}${query({ reassignTo })}`),
    onSuccess: () => {
      showSuccess(heir ? `${user.uid} deleted; ${heir} owns the containers now` : `${user.uid} deleted`);
      setOpen(false);
      void client.invalidateQueries({ queryKey: ['users'] });
      void client.invalidateQueries({ queryKey: ['groups'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'has_containers') setOwned(error.message);
      else showError(error);
    },
  });
  const heirs = users
    .filter((other) => other.uidNumber !== user.uidNumber && other.status === 'active')
    .map((other) => other.uid);
  const ask = () => {
    setOwned(null);
    setHeir(null);
    setOpen(true);
  };
  return (
    <>
      <Button size="xs" color="red" variant="light" onClick={ask}>
        Delete
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Delete ${user.uid}`} centered>
        <Stack>
          {owned ? (
            <>
              <Alert color="yellow" data-testid="has-containers">
                {owned}
              </Alert>
              <Select
                label="Give the containers to"
                placeholder="Choose a user"
                data={heirs}
                value={heir}
                onChange={setHeir}
                searchable
              />
            </>
          ) : (
            <Text size="sm">
              The account is removed with its sessions, API keys and shares. Its jobs, notifications and
              resource requests keep its name; a newcomer with the same name sees none of them.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              data-autofocus
              loading={remove.isPending}
              disabled={owned !== null && !heir}
              onClick={() => remove.mutate(owned ? heir : null)}
            >
              {owned ? 'Give them and delete' : 'Delete'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

import { Alert, Button, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { showError, showSuccess } from '../../api/errors.ts';
import type { User } from '../../api/types.ts';
import { useDeleteUser } from '../../api/users.ts';
import { ConfirmDialog, lastAdminRefusal } from '../../components/ConfirmAction.tsx';

/**
 * Deletes a user after asking. A user who still owns containers is refused (409 has_containers, its
 * message naming them); the dialog then offers to give the containers to another active user. The last
 * active administrator is refused too (409 last_admin), the reason shown in the dialog.
 */
export function DeleteUserButton({ user, users }: { user: User; users: User[] }) {
  const [open, setOpen] = useState(false);
  const [owned, setOwned] = useState<string | null>(null);
  const [heir, setHeir] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useDeleteUser(user, {
    onSuccess: () => {
      showSuccess(heir ? `${user.uid} deleted; ${heir} owns the containers now` : `${user.uid} deleted`);
      setOpen(false);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'has_containers') setOwned(error.message);
      else if (lastAdminRefusal(error)) setRefusal(lastAdminRefusal(error));
      else showError(error);
    },
  });
  const heirs = users
    .filter((other) => other.uidNumber !== user.uidNumber && other.status === 'active')
    .map((other) => other.uid);
  const ask = () => {
    setOwned(null);
    setHeir(null);
    setRefusal(null);
    setOpen(true);
  };
  return (
    <>
      <Button size="xs" color="red" variant="light" onClick={ask}>
        Delete
      </Button>
      <ConfirmDialog
        opened={open}
        title={`Delete ${user.uid}`}
        question={
          owned ? (
            <Alert color="yellow" data-testid="has-containers">
              {owned}
            </Alert>
          ) : (
            <Text size="sm">
              Delete {user.uid} ({user.cn})? The account is removed with its sessions, API keys and shares.
              Its jobs, notifications and resource requests keep its name; a newcomer with the same name sees
              none of them.
            </Text>
          )
        }
        confirmLabel={owned ? 'Give them and delete' : 'Delete'}
        onConfirm={() => remove.mutate(owned ? heir : null)}
        onCancel={() => setOpen(false)}
        pending={remove.isPending}
        confirmDisabled={owned !== null && !heir}
        refusal={refusal}
      >
        {owned ? (
          <Select
            label="Give the containers to"
            placeholder="Choose a user"
            data={heirs}
            value={heir}
            onChange={setHeir}
            searchable
          />
        ) : null}
      </ConfirmDialog>
    </>
  );
}

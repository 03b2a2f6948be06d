import { Button, Checkbox, Group as Row, Modal, Stack, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Group } from '../../api/types.ts';
import { useDeleteGroup, useGroups, useSaveGroup } from '../../api/users.ts';
import {
  EditDeleteActions,
  EmptyState,
  PageHeader,
  QueryState,
  StatusBadge,
} from '../../components/common.tsx';

function GroupForm({ group, onDone }: { group: Group | null; onDone: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { cn: group?.cn ?? '', isAdmin: group?.isAdmin ?? false },
    validate: { cn: (v) => (v.trim() ? null : 'Required') },
  });
  const save = useSaveGroup(group, {
    onSuccess: () => {
      showSuccess('Group saved');
      onDone();
    },
    onError: (error) => showError(error, form),
  });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack>
        <TextInput label="Name" required data-autofocus {...form.getInputProps('cn')} />
        <Checkbox
          label="Administrators: members manage the whole manager"
          {...form.getInputProps('isAdmin', { type: 'checkbox' })}
        />
        <Row justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Row>
      </Stack>
    </form>
  );
}

export function GroupsPage() {
  const groups = useGroups();
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const remove = useDeleteGroup({
    onSuccess: () => showSuccess('Group deleted'),
    onError: (error) => showError(error),
  });
  return (
    <>
      <PageHeader title="Groups">
        <Button onClick={() => setEditing('new')}>New group</Button>
      </PageHeader>
      <QueryState query={groups} empty={<EmptyState title="No groups" />}>
        {(list) => (
          <Table.ScrollContainer minWidth={480}>
            <Table striped highlightOnHover data-testid="groups-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>GID</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Members</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((group) => (
                  <Table.Tr key={group.gidNumber} data-group={group.cn}>
                    <Table.Td fw={500}>{group.cn}</Table.Td>
                    <Table.Td>{group.gidNumber}</Table.Td>
                    <Table.Td>{group.isAdmin ? <StatusBadge status="admin" /> : 'member'}</Table.Td>
                    <Table.Td>{group.userCount ?? '—'}</Table.Td>
                    <Table.Td>
                      <EditDeleteActions
                        name={group.cn}
                        message="Members lose the group's rights."
                        onEdit={() => setEditing(group)}
                        onDelete={() => remove.mutateAsync(group)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New group' : `Edit ${editing?.cn ?? ''}`}
      >
        {editing !== null ? (
          <GroupForm group={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </>
  );
}

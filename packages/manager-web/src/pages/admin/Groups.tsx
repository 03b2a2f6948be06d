import { DataTable, useUrlView, type Column } from '@app/web-kit';
import { Button, Checkbox, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { useState } from 'react';
import { ConfirmAction, lastAdminRefusal, Refusal } from '../../components/ConfirmAction.tsx';
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
  const guide = useFormGuide(form);
  type Values = typeof form.values;
  // Taking the administrators' flag from a group with members is asked first, as demoting a user is.
  const [confirming, setConfirming] = useState<Values | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useSaveGroup(group, {
    onSuccess: () => {
      showSuccess('Group saved');
      onDone();
    },
    onError: (error) => {
      setConfirming(null);
      setRefusal(lastAdminRefusal(error));
      if (!lastAdminRefusal(error)) guide.showError(error);
    },
  });
  const submit = (values: Values) => {
    setRefusal(null);
    const demotes = Boolean(group?.isAdmin) && !values.isAdmin && (group?.userCount ?? 0) > 0;
    if (demotes) setConfirming(values);
    else save.mutate(values);
  };
  return (
    <form ref={guide.ref} onSubmit={form.onSubmit(submit, guide.failed)} noValidate>
      <Stack>
        <TextInput label="Name" required data-autofocus {...form.getInputProps('cn')} />
        <Checkbox
          label="Administrators: members manage the whole manager"
          {...form.getInputProps('isAdmin', { type: 'checkbox' })}
        />
        <Refusal reason={refusal} />
        {confirming ? (
          <ConfirmAction
            question={`Take administrator rights from the ${group?.userCount ?? 0} member(s) of ${group?.cn ?? ''}? They lose those rights at once.`}
            confirmLabel="Save"
            onConfirm={() => save.mutate(confirming)}
            onCancel={() => setConfirming(null)}
            pending={save.isPending}
          />
        ) : null}
        <DialogFormActions
          problems={guide.summary}
          saving={save.isPending}
          onCancel={onDone}
          hidden={Boolean(confirming)}
        />
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
  const [view, changeView] = useUrlView({ filterKeys: [], sort: 'cn' });
  const columns: Array<Column<Group>> = [
    { key: 'cn', header: 'Name', phone: 'title', sortValue: (g) => g.cn, cell: (g) => g.cn },
    { key: 'gid', header: 'GID', align: 'end', sortValue: (g) => g.gidNumber, cell: (g) => g.gidNumber },
    {
      key: 'role',
      header: 'Role',
      sortValue: (g) => (g.isAdmin ? 0 : 1),
      cell: (g) => (g.isAdmin ? <StatusBadge status="admin" /> : 'member'),
    },
    {
      key: 'members',
      header: 'Members',
      align: 'end',
      sortValue: (g) => g.userCount,
      cell: (g) => g.userCount ?? '—',
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (group) => (
        <EditDeleteActions
          name={group.cn}
          message="Members lose the group's rights."
          onEdit={() => setEditing(group)}
          onDelete={() => remove.mutateAsync(group)}
        />
      ),
    },
  ];
  return (
    <>
      <PageHeader title="Groups">
        <Button onClick={() => setEditing('new')}>New group</Button>
      </PageHeader>
      <QueryState query={groups} empty={<EmptyState title="No groups" />}>
        {(list) => (
          <DataTable
            data-testid="groups-table"
            rows={list}
            rowKey={(group) => group.gidNumber}
            rowAttributes={(group) => ({ 'data-group': group.cn })}
            columns={columns}
            searchText={(group) => group.cn}
            searchLabel="Name"
            view={view}
            onViewChange={changeView}
          />
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

import { useUrlView, type Column } from '@app/web-kit';
import { Checkbox, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DialogFormActions, useFormGuide } from '../../components/FormGuide.tsx';
import { Refusal, useRightsSave } from '../../components/ConfirmAction.tsx';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Group } from '../../api/types.ts';
import { useDeleteGroup, useGroups, useSaveGroup } from '../../api/users.ts';
import { EmptyState, StatusBadge } from '../../components/common.tsx';
import { CrudPage } from '../../components/CrudPage.tsx';
import { plural } from '../../components/plural.ts';

function GroupForm({ group, onDone }: { group: Group | null; onDone: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { cn: group?.cn ?? '', isAdmin: group?.isAdmin ?? false },
    validate: { cn: (v) => (v.trim() ? null : 'Required') },
  });
  const guide = useFormGuide(form);
  type Values = typeof form.values;
  // Taking the administrators' flag from a group with members is asked first, as demoting a user is.
  const rights = useRightsSave<Values>(guide);
  const save = useSaveGroup(group, {
    onSuccess: () => {
      showSuccess('Group saved');
      onDone();
    },
    onError: rights.onError,
  });
  const submit = (values: Values) => {
    rights.start();
    const demotes = Boolean(group?.isAdmin) && !values.isAdmin && (group?.userCount ?? 0) > 0;
    if (demotes) rights.ask(values);
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
        <Refusal reason={rights.refusal} />
        <DialogFormActions
          problems={guide.summary}
          saving={save.isPending}
          onCancel={onDone}
          confirmation={
            rights.confirming && {
              question: `Take administrator rights from the ${plural(group?.userCount ?? 0, 'member')} of ${group?.cn ?? ''}? They lose those rights at once.`,
              onConfirm: () => save.mutate(rights.confirming!),
              onCancel: rights.cancel,
            }
          }
        />
      </Stack>
    </form>
  );
}

const GROUP_COLUMNS: Array<Column<Group>> = [
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
];

export function GroupsPage() {
  const remove = useDeleteGroup({
    onSuccess: () => showSuccess('Group deleted'),
    onError: (error) => showError(error),
  });
  const [view, changeView] = useUrlView({ filterKeys: [], sort: 'cn' });
  return (
    <CrudPage
      title="Groups"
      newLabel="New group"
      newTitle="New group"
      query={useGroups()}
      empty={<EmptyState title="No groups" />}
      columns={GROUP_COLUMNS}
      table={{
        'data-testid': 'groups-table',
        rowKey: (group) => group.gidNumber,
        rowAttributes: (group) => ({ 'data-group': group.cn }),
        searchText: (group) => group.cn,
        searchLabel: 'Name',
        view,
        onViewChange: changeView,
      }}
      nameOf={(group) => group.cn}
      deleteMessage="Members lose the group's rights."
      onDelete={(group) => remove.mutateAsync(group)}
      form={(group, done) => <GroupForm group={group} onDone={done} />}
    />
  );
}

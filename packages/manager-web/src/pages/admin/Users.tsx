import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DataTable, Modal, useUrlView, type Column } from '@app/web-kit';
import { useForm } from '@mantine/form';
import { DialogFormActions, FormErrorSummary, useFormGuide } from '../../components/FormGuide.tsx';
import { useMemo, useState } from 'react';
import { showError, showSuccess } from '../../api/errors.ts';
import type { Group as UserGroup, User, UserStatus } from '../../api/types.ts';
import {
  useEmailAllUsers,
  useGroups,
  useInviteUser,
  useSaveUser,
  useSetUserStatus,
  useUsers,
  type UserInput,
} from '../../api/users.ts';
import { EmptyState, PageHeader, QueryState, StatusBadge } from '../../components/common.tsx';
import { ConfirmDialog, lastAdminRefusal, Refusal, useRightsSave } from '../../components/ConfirmAction.tsx';
import { useSettings } from '../../api/settings.ts';
import { DeleteUserButton } from './DeleteUser.tsx';

interface UserValues {
  uid: string;
  givenName: string;
  sn: string;
  mail: string;
  userPassword: string;
  status: UserStatus;
  groupIds: string[];
}

const inputOf = (values: UserValues): UserInput => ({ ...values, groupIds: values.groupIds.map(Number) });

/** What saving these values would take from the user, as a question naming them; null when nothing. */
function lossOf(user: User | null, values: UserValues, groups: UserGroup[]): string | null {
  if (!user) return null;
  const adminGroups = groups.filter((g) => g.isAdmin).map((g) => String(g.gidNumber));
  const demotes = user.isAdmin && !values.groupIds.some((id) => adminGroups.includes(id));
  const suspends = user.status === 'active' && values.status === 'suspended';
  if (demotes && suspends) return `Suspend ${user.uid} and remove their administrator rights?`;
  if (demotes) return `Remove the administrator rights of ${user.uid}?`;
  if (suspends) return `Suspend ${user.uid}? Their open sessions end at once.`;
  return null;
}

function UserForm({ user, groups, onDone }: { user: User | null; groups: UserGroup[]; onDone: () => void }) {
  const form = useForm<UserValues>({
    mode: 'controlled',
    initialValues: {
      uid: user?.uid ?? '',
      givenName: user?.givenName ?? '',
      sn: user?.sn ?? '',
      mail: user?.mail ?? '',
      userPassword: '',
      status: user?.status ?? 'active',
      groupIds: (user?.groups ?? (user ? [] : groups.filter((g) => g.cn === 'ldapusers'))).map((g) =>
        String(g.gidNumber),
      ),
    },
    validate: {
      uid: (v) => (v.trim() ? null : 'Required'),
      givenName: (v) => (v.trim() ? null : 'Required'),
      sn: (v) => (v.trim() ? null : 'Required'),
      mail: (v) => (/^\S+@\S+$/.test(v.trim()) ? null : 'Enter an e-mail address'),
    },
  });
  const guide = useFormGuide(form);
  const rights = useRightsSave<{ values: UserValues; question: string }>(guide);
  const save = useSaveUser(user, {
    onSuccess: () => {
      showSuccess(user ? 'User saved' : 'User created');
      onDone();
    },
    onError: rights.onError,
  });
  const submit = (values: UserValues) => {
    rights.start();
    const question = lossOf(user, values, groups);
    if (question) rights.ask({ values, question });
    else save.mutate(inputOf(values));
  };
  return (
    <form ref={guide.ref} onSubmit={form.onSubmit(submit, guide.failed)} noValidate>
      <Stack>
        <TextInput label="Username" required data-autofocus {...form.getInputProps('uid')} />
        <Group grow align="flex-start">
          <TextInput label="First name" required {...form.getInputProps('givenName')} />
          <TextInput label="Last name" required {...form.getInputProps('sn')} />
        </Group>
        <TextInput label="E-mail" type="email" required {...form.getInputProps('mail')} />
        <PasswordInput
          label="Password"
          description={
            user ? 'Leave blank to keep the current password' : 'Optional: the user can reset it by e-mail'
          }
          autoComplete="new-password"
          {...form.getInputProps('userPassword')}
        />
        <Select
          label="Status"
          data={['pending', 'active', 'suspended']}
          allowDeselect={false}
          {...form.getInputProps('status')}
        />
        <MultiSelect
          label="Groups"
          data={groups.map((g) => ({
            value: String(g.gidNumber),
            label: g.isAdmin ? `${g.cn} (admin)` : g.cn,
          }))}
          {...form.getInputProps('groupIds')}
        />
        <Refusal reason={rights.refusal} />
        <DialogFormActions
          problems={guide.summary}
          saving={save.isPending}
          onCancel={onDone}
          confirmation={
            rights.confirming && {
              question: rights.confirming.question,
              onConfirm: () => save.mutate(inputOf(rights.confirming!.values)),
              onCancel: rights.cancel,
            }
          }
        />
      </Stack>
    </form>
  );
}

/** The invitation link of an answer made without e-mail: here once, to copy and hand over. */
function HandOverLink({ url, message, onDone }: { url: string; message: string; onDone: () => void }) {
  return (
    <Stack>
      <Text size="sm">{message}</Text>
      <Code data-testid="invite-link" block style={{ whiteSpace: 'normal', wordBreak: 'break-all' }}>
        {url}
      </Code>
      <Text size="xs" c="dimmed">
        It is shown only now: whoever opens it can register with that e-mail address.
      </Text>
      <Group justify="flex-end">
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

function InviteForm({ onDone }: { onDone: () => void }) {
  const settings = useSettings();
  const mailless = settings.data ? !(settings.data.smtpUrl && settings.data.smtpNoreplyAddress) : false;
  const [handOver, setHandOver] = useState<{ url: string; message: string } | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: { email: (v) => (/^\S+@\S+$/.test(v.trim()) ? null : 'Enter an e-mail address') },
  });
  const guide = useFormGuide(form);
  const invite = useInviteUser({
    onSuccess: (result) => {
      if (result.inviteUrl) {
        setHandOver({ url: result.inviteUrl, message: result.message });
        return;
      }
      showSuccess(result.message);
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  if (handOver) return <HandOverLink {...handOver} onDone={onDone} />;
  return (
    <form
      ref={guide.ref}
      onSubmit={form.onSubmit((values) => invite.mutate(values), guide.failed)}
      noValidate
    >
      <Stack>
        {mailless ? (
          <Alert color="yellow" data-testid="no-mail">
            E-mail is not set up (Settings, SMTP), so no invitation can be mailed: you get a link to copy and
            hand over yourself.
          </Alert>
        ) : null}
        <Text size="sm">The invitation link is valid once, for 24 hours; the account is active at once.</Text>
        <TextInput label="E-mail" type="email" required data-autofocus {...form.getInputProps('email')} />
        <Group justify="flex-end">
          <FormErrorSummary problems={guide.summary} />
          <Button type="submit" loading={invite.isPending || settings.isPending}>
            {mailless ? 'Create invitation link' : 'Send invitation'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EmailAllForm({ onDone }: { onDone: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { subject: '', message: '' },
    validate: {
      subject: (v) => (v.trim() ? null : 'Required'),
      message: (v) => (v.trim() ? null : 'Required'),
    },
  });
  const guide = useFormGuide(form);
  const send = useEmailAllUsers({
    onSuccess: (result) => {
      showSuccess(`Sent to ${result.sent} users${result.failed ? `, ${result.failed} failed` : ''}`);
      onDone();
    },
    onError: (error) => guide.showError(error),
  });
  return (
    <form ref={guide.ref} onSubmit={form.onSubmit((values) => send.mutate(values), guide.failed)} noValidate>
      <Stack>
        <TextInput label="Subject" required data-autofocus {...form.getInputProps('subject')} />
        <Textarea label="Message" required autosize minRows={4} {...form.getInputProps('message')} />
        <Group justify="flex-end">
          <FormErrorSummary problems={guide.summary} />
          <Button type="submit" loading={send.isPending}>
            Send to every active user
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function UsersPage() {
  const users = useUsers();
  const groups = useGroups();
  const [filter, setFilter] = useState<'all' | UserStatus>('all');
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [dialog, setDialog] = useState<'invite' | 'email' | null>(null);
  const [suspending, setSuspending] = useState<User | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const pending = users.data?.filter((u) => u.status === 'pending').length ?? 0;

  const setStatus = useSetUserStatus({
    onSuccess: (user) => {
      showSuccess(`${user.uid} is now ${user.status}`);
      setSuspending(null);
    },
    onError: (error) => {
      setRefusal(lastAdminRefusal(error));
      if (!lastAdminRefusal(error)) showError(error);
    },
  });
  const askSuspend = (user: User) => {
    setRefusal(null);
    setSuspending(user);
  };

  const visible = useMemo(
    () => (users.data ?? []).filter((u) => filter === 'all' || u.status === filter),
    [users.data, filter],
  );
  const [view, changeView] = useUrlView({ filterKeys: [], sort: 'uid' });
  const columns: Array<Column<User>> = [
    { key: 'uid', header: 'Username', phone: 'title', sortValue: (u) => u.uid, cell: (u) => u.uid },
    { key: 'cn', header: 'Name', sortValue: (u) => u.cn, cell: (u) => u.cn },
    { key: 'mail', header: 'E-mail', sortValue: (u) => u.mail, cell: (u) => u.mail },
    {
      key: 'status',
      header: 'Status',
      sortValue: (u) => u.status,
      cell: (u) => <StatusBadge status={u.status} />,
    },
    {
      key: 'groups',
      header: 'Groups',
      cell: (u) => (
        <Group gap={4}>
          {(u.groups ?? []).map((g) => (
            <Badge key={g.gidNumber} variant="outline" color={g.isAdmin ? 'grape' : 'gray'} size="sm">
              {g.cn}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (user) => (
        <Group gap={4} wrap="wrap">
          {user.status === 'pending' ? (
            <Button size="xs" color="green" onClick={() => setStatus.mutate({ user, status: 'active' })}>
              Approve
            </Button>
          ) : null}
          {user.status === 'active' ? (
            <Button size="xs" variant="light" color="orange" onClick={() => askSuspend(user)}>
              Suspend
            </Button>
          ) : null}
          {user.status === 'suspended' ? (
            <Button size="xs" variant="light" onClick={() => setStatus.mutate({ user, status: 'active' })}>
              Reactivate
            </Button>
          ) : null}
          <Button size="xs" variant="default" onClick={() => setEditing(user)}>
            Edit
          </Button>
          <DeleteUserButton user={user} users={users.data ?? []} />
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Users">
        <Button variant="default" onClick={() => setDialog('email')}>
          E-mail everyone
        </Button>
        <Button variant="default" onClick={() => setDialog('invite')}>
          Invite
        </Button>
        <Button onClick={() => setEditing('new')}>New user</Button>
      </PageHeader>
      <Group mb="md" wrap="wrap">
        <SegmentedControl
          value={filter}
          onChange={(value) => setFilter(value as typeof filter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'pending', label: pending ? `Pending (${pending})` : 'Pending' },
            { value: 'active', label: 'Active' },
            { value: 'suspended', label: 'Suspended' },
          ]}
        />
      </Group>
      <QueryState query={users} empty={<EmptyState title="No users" />}>
        {() => (
          <DataTable
            data-testid="users-table"
            rows={visible}
            rowKey={(user) => user.uidNumber}
            rowAttributes={(user) => ({ 'data-user': user.uid })}
            columns={columns}
            searchText={(u) => `${u.uid} ${u.cn} ${u.mail}`}
            searchLabel="Search name, username, e-mail"
            view={view}
            onViewChange={changeView}
            noMatch={<EmptyState title="No user matches" />}
          />
        )}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New user' : `Edit ${editing?.uid ?? ''}`}
        size="lg"
      >
        {editing !== null ? (
          <UserForm
            user={editing === 'new' ? null : editing}
            groups={groups.data ?? []}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        opened={suspending !== null}
        title={`Suspend ${suspending?.uid ?? ''}`}
        question={`Suspend ${suspending?.uid ?? ''} (${suspending?.cn ?? ''})? They cannot sign in until reactivated, and their open sessions end at once.`}
        confirmLabel="Suspend"
        onConfirm={() => suspending && setStatus.mutate({ user: suspending, status: 'suspended' })}
        onCancel={() => setSuspending(null)}
        pending={setStatus.isPending}
        refusal={refusal}
      />
      <Modal opened={dialog === 'invite'} onClose={() => setDialog(null)} title="Invite a user">
        <InviteForm onDone={() => setDialog(null)} />
      </Modal>
      <Modal
        opened={dialog === 'email'}
        onClose={() => setDialog(null)}
        title="E-mail every active user"
        size="lg"
      >
        <EmailAllForm onDone={() => setDialog(null)} />
      </Modal>
    </>
  );
}

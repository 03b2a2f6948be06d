import { ConfirmButton, LocalDataTable, type Column } from '@app/web-kit';
import {
  Alert,
  Button,
  CopyButton,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Role } from '../api.ts';
import {
  deleteAndRefresh,
  errorMessage,
  fieldError,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
} from '../components/common.tsx';
import { languageScoped, ROLE_HELP, ROLE_NAMES, roleLabel } from '../components/roles.ts';
import { useLanguages } from '../data/project.ts';

type TeamData = Awaited<ReturnType<typeof fetchTeam>>;
type Member = TeamData['members'][number];
type Invite = TeamData['invites'][number];

const fetchTeam = () => api.get('/members');
const teamKey = ['members'] as const;
const ROLE_OPTIONS = (Object.keys(ROLE_NAMES) as Role[]).map((role) => ({
  value: role,
  label: `${ROLE_NAMES[role]} — ${ROLE_HELP[role]}`,
}));

/** Who works on the project: members with their roles, and invitations not yet accepted. */
export function Team() {
  const team = useQuery({ queryKey: teamKey, queryFn: fetchTeam });
  return (
    <>
      <PageTitle>Team</PageTitle>
      <Text c="dimmed" size="sm" mb="md">
        Everyone signs in with their own account and sees what their role allows; translators and reviewers
        work on their languages only. The history names who made each change.
      </Text>
      <Stack>
        <InviteForm />
        <QueryView query={team} label="Loading the team…">
          {(data) => (
            <>
              <Title order={2} size="h4">
                Members
              </Title>
              <Members members={data.members} />
              <Title order={2} size="h4">
                Invitations
              </Title>
              <Invites invites={data.invites} />
            </>
          )}
        </QueryView>
      </Stack>
    </>
  );
}

/** The role and languages fields, shared by the invitation form and a member's row. */
function RoleFields({
  role,
  languages,
  onChange,
  error,
  who,
}: {
  role: Role;
  languages: string[];
  onChange(role: Role, languages: string[]): void;
  error?: string | undefined;
  /** Whose role it is (a member's row); none in the invitation form. */
  who?: string;
}) {
  const projectLanguages = useLanguages();
  return (
    <>
      <Select
        label={who ? `Role of ${who}` : 'Role'}
        data={ROLE_OPTIONS}
        value={role}
        onChange={(value) => value && onChange(value as Role, languages)}
        allowDeselect={false}
        w={260}
        comboboxProps={{ width: 420 }}
      />
      {languageScoped(role) && (
        <MultiSelect
          label={who ? `Languages of ${who}` : 'Languages'}
          data={(projectLanguages.data ?? []).map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))}
          value={languages}
          onChange={(value) => onChange(role, value)}
          searchable
          error={error}
          w={260}
        />
      )}
    </>
  );
}

function InviteForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('translator');
  const [languages, setLanguages] = useState<string[]>([]);
  const invite = useMutation({
    mutationFn: () => api.post('/members/invites', { body: { email, role, languages } }),
    onSuccess: async () => {
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: teamKey });
    },
  });
  const link = invite.data ? (invite.data.url ?? window.location.origin + invite.data.path) : null;
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        invite.mutate();
      }}
    >
      <Title order={2} size="h4" mb="sm">
        Invite someone
      </Title>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="E-mail"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fieldError(invite.error, 'email')}
          required
          w={260}
        />
        <RoleFields
          role={role}
          languages={languages}
          onChange={(nextRole, nextLanguages) => {
            setRole(nextRole);
            setLanguages(nextLanguages);
          }}
          error={fieldError(invite.error, 'languages')}
        />
      </Group>
      <Group mt="sm">
        <Button type="submit" loading={invite.isPending}>
          Invite
        </Button>
      </Group>
      {invite.isError && !fieldError(invite.error, 'email', 'languages') && (
        <Alert color="red" role="alert" mt="sm">
          {errorMessage(invite.error)}
        </Alert>
      )}
      {link && invite.data && (
        <Alert color="green" mt="sm" title={`Invitation for ${invite.data.email}`} data-testid="invite-link">
          <Text size="sm" mb="xs">
            Send them this link; it works once, until {new Date(invite.data.expiresAt).toLocaleDateString()}:
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {link}
            </Text>
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
    </Paper>
  );
}

function MemberRole({ member }: { member: Member }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState(member.role);
  const [languages, setLanguages] = useState(member.languages);
  const change = useMutation({
    mutationFn: () =>
      api.patch('/members/{accountId}', { path: { accountId: member.accountId }, body: { role, languages } }),
    onSuccess: async () => {
      notifyOk(`${member.name} is now ${roleLabel(role, languages)}`);
      await queryClient.invalidateQueries({ queryKey: teamKey });
    },
    onError: (error) => notifyError(error, 'The role was not changed'),
  });
  const changed = role !== member.role || languages.join() !== member.languages.join();
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <RoleFields
        who={member.name}
        role={role}
        languages={languages}
        onChange={(nextRole, nextLanguages) => {
          setRole(nextRole);
          setLanguages(nextLanguages);
        }}
      />
      {changed && (
        <Button size="xs" onClick={() => change.mutate()} loading={change.isPending}>
          Save
        </Button>
      )}
    </Group>
  );
}

function Members({ members }: { members: Member[] }) {
  const queryClient = useQueryClient();
  const columns: Array<Column<Member>> = [
    {
      key: 'name',
      header: 'Name',
      phone: 'title',
      sortValue: (m) => m.name.toLowerCase(),
      cell: (m) => m.name,
    },
    { key: 'email', header: 'E-mail', sortValue: (m) => m.email, cell: (m) => m.email },
    { key: 'role', header: 'Role', cell: (m) => <MemberRole member={m} /> },
    {
      key: 'actions',
      header: 'Actions',
      cell: (m) => (
        <ConfirmButton
          size="xs"
          ariaLabel={`Remove ${m.name}`}
          title="Remove from the project?"
          message={`${m.name} (${m.email}) can no longer open this project.`}
          confirmLabel="Remove"
          onConfirm={() =>
            deleteAndRefresh(
              () => api.delete('/members/{accountId}', { path: { accountId: m.accountId } }),
              `${m.name} removed`,
              () => queryClient.invalidateQueries({ queryKey: teamKey }),
            )
          }
        >
          Remove
        </ConfirmButton>
      ),
    },
  ];
  if (!members.length)
    return (
      <Text size="sm" c="dimmed">
        No members yet: invite yourself first to sign in with an account rather than the key.
      </Text>
    );
  return (
    <LocalDataTable
      data-testid="team-members"
      sort={{ key: 'name', direction: 'ascending' }}
      rows={members}
      rowKey={(m) => String(m.accountId)}
      rowLabel={(m) => m.name}
      columns={columns}
      searchText={(m) => `${m.name} ${m.email} ${m.role}`}
      searchLabel="Search members"
    />
  );
}

function Invites({ invites }: { invites: Invite[] }) {
  const queryClient = useQueryClient();
  if (!invites.length)
    return (
      <Text size="sm" c="dimmed">
        No invitation waits.
      </Text>
    );
  const columns: Array<Column<Invite>> = [
    { key: 'email', header: 'E-mail', phone: 'title', cell: (i) => i.email },
    { key: 'role', header: 'Role', cell: (i) => roleLabel(i.role, i.languages) },
    { key: 'by', header: 'Invited by', cell: (i) => i.invitedBy },
    { key: 'expires', header: 'Expires', cell: (i) => new Date(i.expiresAt).toLocaleString() },
    {
      key: 'actions',
      header: 'Actions',
      cell: (i) => (
        <ConfirmButton
          size="xs"
          ariaLabel={`Withdraw the invitation of ${i.email}`}
          title="Withdraw the invitation?"
          message={`The link sent to ${i.email} stops working.`}
          confirmLabel="Withdraw"
          onConfirm={() =>
            deleteAndRefresh(
              () => api.delete('/members/invites/{id}', { path: { id: i.id } }),
              'Invitation withdrawn',
              () => queryClient.invalidateQueries({ queryKey: teamKey }),
            )
          }
        >
          Withdraw
        </ConfirmButton>
      ),
    },
  ];
  return (
    <LocalDataTable
      data-testid="team-invites"
      sort={{ key: 'email', direction: 'ascending' }}
      rows={invites}
      rowKey={(i) => String(i.id)}
      rowLabel={(i) => i.email}
      columns={columns}
      searchText={(i) => i.email}
      searchLabel="Search invitations"
    />
  );
}

import { AppFrame, NavLinks } from '@app/web-kit';
import { Alert, Button, Group, NavLink, Select, Text } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useAuth, type Access } from '../auth.tsx';
import { useProject } from '../data/project.ts';
import { Loading } from './basics.tsx';
import { FullKeyWarning } from './FullKeyWarning.tsx';
import { roleLabel } from './roles.ts';

const NAV: Array<{ to: string; label: string; access: Access }> = [
  { to: '/review', label: 'Review', access: 'read' },
  { to: '/translations', label: 'Translations', access: 'read' },
  { to: '/ai', label: 'AI translation', access: 'manage' },
  { to: '/prompts', label: 'Prompts', access: 'manage' },
  { to: '/glossary', label: 'Glossary', access: 'read' },
  { to: '/analytics', label: 'Analytics', access: 'read' },
  { to: '/settings', label: 'Settings', access: 'manage' },
  { to: '/backups', label: 'Backups & export', access: 'manage' },
  { to: '/install', label: 'Install', access: 'read' },
  { to: '/team', label: 'Team', access: 'own' },
];

/** The signed-in account: its name and role, and the project it works on when it has several. */
function AccountBar() {
  const { session, membership, switchProject } = useAuth();
  if (!session) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      {session.projects.length > 1 && (
        <Select
          aria-label="Project"
          size="xs"
          w={180}
          data={session.projects.map((p) => ({ value: String(p.id), label: p.name }))}
          value={membership ? String(membership.id) : null}
          onChange={(value) => value && switchProject(Number(value))}
          allowDeselect={false}
        />
      )}
      <Text size="sm" visibleFrom="sm" data-testid="account">
        {session.account.name}
        {membership && (
          <Text span c="dimmed" size="sm">
            {' '}
            · {roleLabel(membership.role, membership.languages)}
          </Text>
        )}
      </Text>
    </Group>
  );
}

export function Layout() {
  const { signOut, can, session, membership } = useAuth();
  const project = useProject();
  if (session && !membership)
    return (
      <Alert color="yellow" m="md" title="No project" role="alert">
        Your account ({session.account.email}) is not a member of any project any more: ask a project owner
        for an invitation.{' '}
        <Button variant="subtle" size="xs" onClick={signOut}>
          Sign out
        </Button>
      </Alert>
    );
  return (
    <AppFrame
      navbarWidth={220}
      brand={
        <>
          <Text fw={700}>Translator</Text>
          {project.data && (
            <Text c="dimmed" size="sm" truncate visibleFrom="xs" data-testid="project-name">
              {project.data.name}
            </Text>
          )}
        </>
      }
      actions={
        <Group gap="xs" wrap="nowrap">
          <AccountBar />
          <Button variant="subtle" size="xs" onClick={signOut}>
            Sign out
          </Button>
        </Group>
      }
      navigation={(close) => (
        <>
          <NavLinks items={NAV.filter((item) => can(item.access))} onNavigate={close} />
          <NavLink href="/api/docs" target="_blank" rel="noopener" label="API docs" />
        </>
      )}
    >
      {project.data?.full_key_used_from && <FullKeyWarning seen={project.data.full_key_used_from} />}
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </AppFrame>
  );
}

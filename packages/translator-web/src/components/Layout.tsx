import { AppFrame, NavLinks } from '@app/web-kit';
import { Button, NavLink, Text } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../auth.tsx';
import { useProject } from '../data/project.ts';
import { Loading } from './basics.tsx';
import { FullKeyWarning } from './FullKeyWarning.tsx';

const NAV = [
  { to: '/review', label: 'Review' },
  { to: '/translations', label: 'Translations' },
  { to: '/ai', label: 'AI translation' },
  { to: '/prompts', label: 'Prompts' },
  { to: '/glossary', label: 'Glossary' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/settings', label: 'Settings' },
  { to: '/backups', label: 'Backups & export' },
  { to: '/install', label: 'Install' },
];

export function Layout() {
  const { signOut } = useAuth();
  const project = useProject();
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
        <Button variant="subtle" size="xs" onClick={signOut}>
          Sign out
        </Button>
      }
      navigation={(close) => (
        <>
          <NavLinks items={NAV} onNavigate={close} />
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

import { AppShell, Box, Burger, Button, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useAuth } from '../auth.tsx';
import { useProject } from '../hooks.ts';
import { Loading } from './basics.tsx';
import { FullKeyWarning } from './FullKeyWarning.tsx';

const NAV = [
  { to: '/review', label: 'Review' },
  { to: '/translations', label: 'Translations' },
  { to: '/ai', label: 'AI translation' },
  { to: '/prompts', label: 'Prompts' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/settings', label: 'Settings' },
  { to: '/backups', label: 'Backups & export' },
  { to: '/install', label: 'Install' },
];

export function Layout() {
  const [opened, { toggle, close }] = useDisclosure();
  const { signOut } = useAuth();
  const project = useProject();
  const { pathname } = useLocation();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Text fw={700}>Translator</Text>
            {project.data && (
              <Text c="dimmed" size="sm" truncate visibleFrom="xs" data-testid="project-name">
                {project.data.name}
              </Text>
            )}
          </Group>
          <Button variant="subtle" size="xs" onClick={signOut}>
            Sign out
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {/* A plain scrolling box: Mantine's ScrollArea would bring @floating-ui into the first load. */}
        <Box style={{ overflowY: 'auto', flex: 1, minHeight: 0 }}>
          {NAV.map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              active={pathname === item.to || pathname.startsWith(`${item.to}/`)}
              onClick={close}
            />
          ))}
          <NavLink href="/api/docs" target="_blank" rel="noopener" label="API docs" />
        </Box>
      </AppShell.Navbar>
      <AppShell.Main>
        {project.data?.full_key_used_from && <FullKeyWarning seen={project.data.full_key_used_from} />}
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

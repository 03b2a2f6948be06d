import { AppShell, Box, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import './skip-link.css';

/**
 * The signed-in frame of a web client: a link that skips to the page (the first thing Tab reaches), a
 * header (burger on a phone, `brand`, `actions`), the navigation beside the page, and the page.
 */
export function AppFrame({
  navbarWidth,
  brand,
  actions,
  navigation,
  children,
}: {
  navbarWidth: number;
  brand: ReactNode;
  actions: ReactNode;
  /** The navigation's entries; `close` folds it away again on a phone once one is chosen. */
  navigation: (close: () => void) => ReactNode;
  children: ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: navbarWidth, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a className="skip-link" href="#content">
        Skip to content
      </a>
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
            {brand}
          </Group>
          {actions}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        {/* A plain scrolling box: Mantine's ScrollArea would bring @floating-ui into the first load. */}
        <Box style={{ overflowY: 'auto', flex: 1, minHeight: 0 }}>{navigation(close)}</Box>
      </AppShell.Navbar>
      {/* Focusable so the skip link moves focus there, and the next Tab reaches the page's first control. */}
      <AppShell.Main id="content" tabIndex={-1}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

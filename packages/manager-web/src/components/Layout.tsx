import { Busy, AppFrame, NavLinks, type NavItem } from '@app/web-kit';
import { Button, Group, NavLink, Text, Center } from '@mantine/core';
import { Link as RouterLink, Navigate, Outlet, useLocation } from 'react-router';
import { api } from '../api/client.ts';
import { showError } from '../api/errors.ts';
import { useNotificationBadge } from '../api/notifications.ts';
import { usePendingRequestCount } from '../api/resource-requests.ts';
import { useSession } from '../api/session.ts';
import { usePendingUserCount } from '../api/users.ts';
import { Banner } from './Banner.tsx';
import { ErrorState } from './basics.tsx';

function useUnreadNotifications(enabled: boolean) {
  const query = useNotificationBadge(enabled);
  return query.data?.filter((n) => !n.acknowledgedAt).length ?? 0;
}

/** Administrators' pending approvals: accounts waiting and resource requests waiting. */
function usePendingApprovals(isAdmin: boolean) {
  const every = { enabled: isAdmin, refetchInterval: 60_000 };
  const users = usePendingUserCount(every);
  const requests = usePendingRequestCount(every);
  return { users: users.data?.count ?? 0, requests: requests.data?.count ?? 0 };
}

/** The signed-in frame: header, navigation (admin entries only for admins), banner, page. */
export function Layout() {
  const session = useSession();
  const location = useLocation();
  const unread = useUnreadNotifications(Boolean(session.data));
  const pending = usePendingApprovals(Boolean(session.data?.isAdmin));

  if (session.isPending)
    return (
      <Center h="100vh">
        <Busy label="Loading" />
      </Center>
    );
  if (session.isError) return <ErrorState error={session.error} retry={() => void session.refetch()} />;
  if (!session.data) {
    const redirect = location.pathname + location.search + location.hash;
    return (
      <Navigate
        to={redirect === '/' ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`}
        replace
      />
    );
  }
  const { user, isAdmin } = session.data;

  const logout = async () => {
    try {
      const result = await api.post('/auth/logout');
      // A full page load: nothing of the session (cached data, CSRF token) survives in memory.
      window.location.assign(result.logoutUrl ?? '/login');
    } catch (error) {
      showError(error);
    }
  };

  const everyone: NavItem[] = [
    { to: '/overview', label: 'Overview' },
    { to: '/containers', label: 'Containers', match: /^\/(containers|sites\/\d+\/containers|jobs)(\/|$)/ },
    {
      to: '/resource-requests',
      label: isAdmin ? 'Resource requests' : 'My resource requests',
      ...(isAdmin ? { badge: pending.requests, badgeLabel: 'waiting for a decision' } : {}),
    },
    { to: '/notifications', label: 'Notifications', badge: unread },
    { to: '/apikeys', label: 'API keys' },
    { to: '/activity', label: 'My activity' },
  ];
  const admin: NavItem[] = [
    { to: '/sites', label: 'Sites', match: /^\/sites\/?$/ },
    { to: '/nodes', label: 'Nodes', match: /^\/(nodes|sites\/\d+\/nodes)(\/|$)/ },
    { to: '/users', label: 'Users', badge: pending.users, badgeLabel: 'waiting for approval' },
    { to: '/groups', label: 'Groups' },
    { to: '/external-domains', label: 'External domains' },
    { to: '/alert-rules', label: 'Alert rules' },
    { to: '/agents', label: 'Agents' },
    { to: '/settings', label: 'Settings' },
    { to: '/audit-log', label: 'Audit log' },
  ];

  return (
    <AppFrame
      navbarWidth={230}
      brand={
        <Text
          fw={700}
          component={RouterLink}
          to="/containers"
          style={{ textDecoration: 'none', color: 'inherit' }}
        >
          Container Manager
        </Text>
      }
      actions={
        <Group gap="sm" wrap="nowrap">
          <Text size="sm" c="dimmed" visibleFrom="xs" data-testid="current-user">
            {user}
            {isAdmin ? ' (admin)' : ''}
          </Text>
          <Button size="xs" variant="default" onClick={() => void logout()}>
            Sign out
          </Button>
        </Group>
      }
      navigation={(close) => (
        <>
          <NavLinks items={everyone} onNavigate={close} />
          <NavLink href="/api/v1/docs" target="_blank" rel="noopener" label="API docs" />
          {isAdmin ? (
            <>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="md" mb={4} px="sm">
                Administration
              </Text>
              <NavLinks items={admin} onNavigate={close} />
            </>
          ) : null}
        </>
      )}
    >
      <Banner />
      <div style={{ paddingTop: 'var(--mantine-spacing-md)' }}>
        <Outlet />
      </div>
    </AppFrame>
  );
}

/** Pages only administrators reach (the server refuses the API calls to anyone else anyway). */
export function AdminOnly() {
  const session = useSession();
  if (!session.data?.isAdmin) return <ErrorState error={new Error('This page is for administrators.')} />;
  return <Outlet />;
}

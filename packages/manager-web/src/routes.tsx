import { Busy } from '@app/web-kit';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Center } from '@mantine/core';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { AdminOnly, Layout } from './components/Layout.tsx';
import { EmptyState } from './components/basics.tsx';

const later = (element: ReactNode) => (
  <Suspense
    fallback={
      <Center py="xl">
        <Busy label="Loading" />
      </Center>
    }
  >
    {element}
  </Suspense>
);

// Every page loads on demand, the sign-in pages too: the first load is the shell and the libraries every
// page uses (the node page's recharts only when it is opened).
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy(() => load().then((module) => ({ default: module[name] as ComponentType })));
  return function LazyPage() {
    return later(<Page />);
  };
}
const LoginPage = page(() => import('./pages/auth/Login.tsx'), 'LoginPage');
const RegisterPage = page(() => import('./pages/auth/Register.tsx'), 'RegisterPage');
const ResetRequestPage = page(() => import('./pages/auth/ResetPassword.tsx'), 'ResetRequestPage');
const ResetCompletePage = page(() => import('./pages/auth/ResetPassword.tsx'), 'ResetCompletePage');
const ApiKeysPage = page(() => import('./pages/ApiKeys.tsx'), 'ApiKeysPage');
const OverviewPage = page(() => import('./pages/Overview.tsx'), 'OverviewPage');
const UsersPage = page(() => import('./pages/admin/Users.tsx'), 'UsersPage');
const GroupsPage = page(() => import('./pages/admin/Groups.tsx'), 'GroupsPage');
const SettingsPage = page(() => import('./pages/admin/Settings.tsx'), 'SettingsPage');
const SitesPage = page(() => import('./pages/admin/Sites.tsx'), 'SitesPage');
const NodesPage = page(() => import('./pages/admin/Nodes.tsx'), 'NodesPage');
const NodeFormPage = page(() => import('./pages/admin/NodeForm.tsx'), 'NodeFormPage');
const NodeImportPage = page(() => import('./pages/admin/NodeImport.tsx'), 'NodeImportPage');
const ExternalDomainsPage = page(() => import('./pages/admin/ExternalDomains.tsx'), 'ExternalDomainsPage');
const AlertRulesPage = page(() => import('./pages/admin/AlertRules.tsx'), 'AlertRulesPage');
const AgentsPage = page(() => import('./pages/admin/Agents.tsx'), 'AgentsPage');
const ResourceRequestsPage = page(() => import('./pages/ResourceRequests.tsx'), 'ResourceRequestsPage');
const AuditLogPage = page(() => import('./pages/admin/AuditLog.tsx'), 'AuditLogPage');
const MyActivityPage = page(() => import('./pages/MyActivity.tsx'), 'MyActivityPage');
const NotificationsPage = page(() => import('./pages/Notifications.tsx'), 'NotificationsPage');
const ContainersHome = page(() => import('./pages/containers/ContainerList.tsx'), 'ContainersHome');
const ContainersPage = page(() => import('./pages/containers/ContainerList.tsx'), 'ContainersPage');
const ContainerCreatePage = page(() => import('./pages/containers/ContainerForm.tsx'), 'ContainerCreatePage');
const ContainerEditPage = page(() => import('./pages/containers/ContainerForm.tsx'), 'ContainerEditPage');
const ContainerDetailPage = page(
  () => import('./pages/containers/ContainerDetail.tsx'),
  'ContainerDetailPage',
);
const TerminalPage = page(() => import('./pages/containers/Terminal.tsx'), 'TerminalPage');
const JobPage = page(() => import('./pages/containers/JobPage.tsx'), 'JobPage');
const NodeDetailPage = lazy(() => import('./pages/admin/NodeDetail.tsx'));

const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/reset-password', element: <ResetRequestPage /> },
  { path: '/reset-password/:token', element: <ResetCompletePage /> },
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/containers" replace /> },
      { path: 'overview', element: <OverviewPage /> },
      { path: 'containers', element: <ContainersHome /> },
      { path: 'sites/:siteId/containers', element: <ContainersPage /> },
      { path: 'sites/:siteId/containers/new', element: <ContainerCreatePage /> },
      { path: 'sites/:siteId/containers/:id', element: <ContainerDetailPage /> },
      { path: 'sites/:siteId/containers/:id/edit', element: <ContainerEditPage /> },
      { path: 'sites/:siteId/containers/:id/terminal', element: <TerminalPage /> },
      { path: 'jobs/:id', element: <JobPage /> },
      { path: 'apikeys', element: <ApiKeysPage /> },
      { path: 'activity', element: <MyActivityPage /> },
      { path: 'notifications', element: <NotificationsPage /> },
      { path: 'resource-requests', element: <ResourceRequestsPage /> },
      {
        element: <AdminOnly />,
        children: [
          { path: 'sites', element: <SitesPage /> },
          { path: 'nodes', element: <NodesPage /> },
          { path: 'sites/:siteId/nodes', element: <NodesPage /> },
          { path: 'sites/:siteId/nodes/new', element: <NodeFormPage /> },
          { path: 'sites/:siteId/nodes/import', element: <NodeImportPage /> },
          { path: 'sites/:siteId/nodes/:id', element: later(<NodeDetailPage />) },
          { path: 'sites/:siteId/nodes/:id/edit', element: <NodeFormPage /> },
          { path: 'users', element: <UsersPage /> },
          { path: 'groups', element: <GroupsPage /> },
          { path: 'external-domains', element: <ExternalDomainsPage /> },
          { path: 'alert-rules', element: <AlertRulesPage /> },
          { path: 'agents', element: <AgentsPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'audit-log', element: <AuditLogPage /> },
        ],
      },
      {
        path: '*',
        element: <EmptyState title="Page not found">Nothing lives at this address.</EmptyState>,
      },
    ],
  },
];

/** The pages for the address (below web-kit's router). */
export function AppRoutes() {
  // An error thrown while rendering a page shows web-kit's PageCrashed (its CrashBoundary) until the
  // next navigation.
  return useRoutes(routes);
}

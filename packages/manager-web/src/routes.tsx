import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate } from 'react-router';
import { AdminOnly, Layout } from './components/Layout.tsx';
import { EmptyState } from './components/common.tsx';
import { LoginPage } from './pages/auth/Login.tsx';
import { RegisterPage } from './pages/auth/Register.tsx';
import { ResetCompletePage, ResetRequestPage } from './pages/auth/ResetPassword.tsx';

const later = (element: ReactNode) => (
  <Suspense
    fallback={
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    }
  >
    {element}
  </Suspense>
);

// Pages load on demand (the sign-in page does not carry the admin pages, nor recharts).
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy(() => load().then((module) => ({ default: module[name] as ComponentType })));
  return function LazyPage() {
    return later(<Page />);
  };
}
const ApiKeysPage = page(() => import('./pages/ApiKeys.tsx'), 'ApiKeysPage');
const UsersPage = page(() => import('./pages/admin/Users.tsx'), 'UsersPage');
const GroupsPage = page(() => import('./pages/admin/Groups.tsx'), 'GroupsPage');
const SettingsPage = page(() => import('./pages/admin/Settings.tsx'), 'SettingsPage');
const SitesPage = page(() => import('./pages/admin/Sites.tsx'), 'SitesPage');
const NodesPage = page(() => import('./pages/admin/Nodes.tsx'), 'NodesPage');
const NodeFormPage = page(() => import('./pages/admin/Nodes.tsx'), 'NodeFormPage');
const NodeImportPage = page(() => import('./pages/admin/Nodes.tsx'), 'NodeImportPage');
const ExternalDomainsPage = page(() => import('./pages/admin/ExternalDomains.tsx'), 'ExternalDomainsPage');
const AgentsPage = page(() => import('./pages/admin/Agents.tsx'), 'AgentsPage');
const ResourceRequestsPage = page(() => import('./pages/ResourceRequests.tsx'), 'ResourceRequestsPage');
const NotificationsPage = page(() => import('./pages/Notifications.tsx'), 'NotificationsPage');
const ContainersHome = page(() => import('./pages/containers/ContainerList.tsx'), 'ContainersHome');
const ContainersPage = page(() => import('./pages/containers/ContainerList.tsx'), 'ContainersPage');
const ContainerCreatePage = page(() => import('./pages/containers/ContainerForm.tsx'), 'ContainerCreatePage');
const ContainerEditPage = page(() => import('./pages/containers/ContainerForm.tsx'), 'ContainerEditPage');
const ContainerDetailPage = page(
  () => import('./pages/containers/ContainerDetail.tsx'),
  'ContainerDetailPage',
);
const JobPage = page(() => import('./pages/containers/JobPage.tsx'), 'JobPage');
const NodeDetailPage = lazy(() => import('./pages/admin/NodeDetail.tsx'));

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/reset-password', element: <ResetRequestPage /> },
  { path: '/reset-password/:token', element: <ResetCompletePage /> },
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/containers" replace /> },
      { path: 'containers', element: <ContainersHome /> },
      { path: 'sites/:siteId/containers', element: <ContainersPage /> },
      { path: 'sites/:siteId/containers/new', element: <ContainerCreatePage /> },
      { path: 'sites/:siteId/containers/:id', element: <ContainerDetailPage /> },
      { path: 'sites/:siteId/containers/:id/edit', element: <ContainerEditPage /> },
      { path: 'jobs/:id', element: <JobPage /> },
      { path: 'apikeys', element: <ApiKeysPage /> },
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
          { path: 'agents', element: <AgentsPage /> },
          { path: 'settings', element: <SettingsPage /> },
        ],
      },
      {
        path: '*',
        element: <EmptyState title="Page not found">Nothing lives at this address.</EmptyState>,
      },
    ],
  },
]);

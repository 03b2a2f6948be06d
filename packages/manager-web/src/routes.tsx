import { lazy, Suspense, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate } from 'react-router';
import { AdminOnly, Layout } from './components/Layout.tsx';
import { EmptyState } from './components/common.tsx';
import { LoginPage } from './pages/auth/Login.tsx';
import { RegisterPage } from './pages/auth/Register.tsx';
import { ResetCompletePage, ResetRequestPage } from './pages/auth/ResetPassword.tsx';
import { ApiKeysPage } from './pages/ApiKeys.tsx';
import { UsersPage } from './pages/admin/Users.tsx';
import { GroupsPage } from './pages/admin/Groups.tsx';
import { SettingsPage } from './pages/admin/Settings.tsx';
import { SitesPage } from './pages/admin/Sites.tsx';
import { NodesPage, NodeFormPage, NodeImportPage } from './pages/admin/Nodes.tsx';
import { ExternalDomainsPage } from './pages/admin/ExternalDomains.tsx';
import { AgentsPage } from './pages/admin/Agents.tsx';
import { ResourceRequestsPage } from './pages/ResourceRequests.tsx';
import { NotificationsPage } from './pages/Notifications.tsx';
import { ContainersHome, ContainersPage } from './pages/containers/ContainerList.tsx';
import { ContainerCreatePage, ContainerEditPage } from './pages/containers/ContainerForm.tsx';
import { ContainerDetailPage } from './pages/containers/ContainerDetail.tsx';
import { JobPage } from './pages/containers/JobPage.tsx';

// recharts is large: the node page with its live charts loads on demand.
const NodeDetailPage = lazy(() => import('./pages/admin/NodeDetail.tsx'));

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

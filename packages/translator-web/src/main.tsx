import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { DataRouter, renderApp } from '@app/web-kit';
import { AuthProvider } from './auth.tsx';
import { App } from './App.tsx';

renderApp({
  primaryColor: 'indigo',
  staleTime: 5_000,
  // Settings asks before it is left with unsaved changes (LeaveGuard).
  router: DataRouter,
  children: (
    <AuthProvider>
      <App />
    </AuthProvider>
  ),
});

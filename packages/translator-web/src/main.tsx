import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { renderApp } from '@app/web-kit';
import { AuthProvider } from './auth.tsx';
import { App } from './App.tsx';

renderApp({
  primaryColor: 'indigo',
  staleTime: 5_000,
  children: (
    <AuthProvider>
      <App />
    </AuthProvider>
  ),
});

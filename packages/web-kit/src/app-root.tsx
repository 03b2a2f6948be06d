import { MantineProvider, type MantineColor } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api-error.ts';
import { accessibleTheme } from './theme.ts';
import { CrashBoundary } from './CrashBoundary.tsx';
import type { AppRouter } from './routers.tsx';
import './links.css';

/**
 * Renders a web client into `#root` inside what every page needs: Mantine with its notifications, the
 * query client and the router.
 */
export function renderApp({
  primaryColor,
  staleTime,
  router: Router,
  children,
}: {
  primaryColor: MantineColor;
  /** How long a query's data counts as fresh, in milliseconds. */
  staleTime: number;
  /** PlainRouter, or DataRouter for an app whose pages guard unsaved changes. */
  router: AppRouter;
  children: ReactNode;
}) {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        // Every 4xx/5xx counts toward the server's rate limit: retry only when the network failed.
        retry: (count, error) => count < 2 && error instanceof ApiError && error.status === 0,
        refetchOnWindowFocus: false,
        staleTime,
      },
    },
  });
  const { theme, cssVariablesResolver } = accessibleTheme(primaryColor);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        {/* Over the header's empty middle, not over the form controls a page's lower right holds. */}
        <Notifications position="top-center" limit={3} />
        <QueryClientProvider client={queryClient}>
          {/* The apps route below it with their own <Routes>. */}
          <Router>
            <CrashBoundary>{children}</CrashBoundary>
          </Router>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

import './styles.ts';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/client.ts';
import { AppRoutes } from './routes.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Every 4xx/5xx counts toward the server's rate limit: retry only when the network failed.
      retry: (count, error) => count < 2 && error instanceof ApiError && error.status === 0,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
  },
});

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'sm' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

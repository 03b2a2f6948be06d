import { useState, type ReactNode } from 'react';
import { BrowserRouter, createBrowserRouter, RouterProvider } from 'react-router';

/** What renderApp puts the app in: one of the two below (an app imports only the one it uses). */
export type AppRouter = (props: { children: ReactNode }) => ReactNode;

/** react-router's plain router: what an app without leave guards needs. */
export const PlainRouter: AppRouter = ({ children }) => <BrowserRouter>{children}</BrowserRouter>;

/**
 * A data router, for react-router's useBlocker (pages that ask before they are left with unsaved
 * changes): 15 kB more compressed script before the first page than PlainRouter.
 */
export const DataRouter: AppRouter = ({ children }) => {
  // One router for the tab's life (renderApp renders this once; StrictMode renders it twice).
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: children }]));
  return <RouterProvider router={router} />;
};

import './styles.ts';
import { PlainRouter, renderApp } from '@app/web-kit';
import { AppRoutes } from './routes.tsx';

renderApp({ primaryColor: 'blue', staleTime: 10_000, router: PlainRouter, children: <AppRoutes /> });

import './styles.ts';
import { renderApp } from '@app/web-kit';
import { AppRoutes } from './routes.tsx';

renderApp({ primaryColor: 'blue', staleTime: 10_000, children: <AppRoutes /> });

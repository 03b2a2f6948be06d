import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from './auth.tsx';
import { Layout } from './components/Layout.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { Review } from './pages/Review.tsx';
import { Grid } from './pages/Grid.tsx';
import { AiJobs } from './pages/AiJobs.tsx';
import { Prompts } from './pages/Prompts.tsx';
import { Analytics } from './pages/Analytics.tsx';
import { UrlDetailPage } from './pages/UrlDetail.tsx';
import { PhraseDetailPage } from './pages/PhraseDetail.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { Backups } from './pages/Backups.tsx';
import { Install } from './pages/Install.tsx';

export function App() {
  const { apiKey } = useAuth();
  const location = useLocation();
  if (!apiKey) {
    if (location.pathname === '/signin') return <SignIn />;
    const next = location.pathname + location.search;
    return <Navigate to={`/signin${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`} replace />;
  }
  return (
    <Routes>
      <Route path="/signin" element={<Navigate to="/" replace />} />
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/review" replace />} />
        <Route path="review" element={<Review />} />
        <Route path="translations" element={<Grid />} />
        <Route path="ai" element={<AiJobs />} />
        <Route path="prompts" element={<Prompts />} />
        <Route path="analytics" element={<Analytics />} />
        <Route path="analytics/url" element={<UrlDetailPage />} />
        <Route path="analytics/phrases/:id" element={<PhraseDetailPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="backups" element={<Backups />} />
        <Route path="install" element={<Install />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return <p>This page does not exist.</p>;
}

import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from './auth.tsx';
import { Layout } from './components/Layout.tsx';
import { Loading } from './components/basics.tsx';

// Every page loads on demand (recharts with Analytics above all): the first load is the shell and the
// libraries every page uses; the sign-in form's fields load only for a browser that is not signed in.
const SignIn = lazy(() => import('./pages/SignIn.tsx').then((m) => ({ default: m.SignIn })));
const AcceptInvite = lazy(() =>
  import('./pages/AcceptInvite.tsx').then((m) => ({ default: m.AcceptInvite })),
);
const Review = lazy(() => import('./pages/Review.tsx').then((m) => ({ default: m.Review })));
const Grid = lazy(() => import('./pages/Grid.tsx').then((m) => ({ default: m.Grid })));
const AiJobs = lazy(() => import('./pages/AiJobs.tsx').then((m) => ({ default: m.AiJobs })));
const Prompts = lazy(() => import('./pages/Prompts.tsx').then((m) => ({ default: m.Prompts })));
const Analytics = lazy(() => import('./pages/Analytics.tsx').then((m) => ({ default: m.Analytics })));
const UrlDetailPage = lazy(() => import('./pages/UrlDetail.tsx').then((m) => ({ default: m.UrlDetailPage })));
const PhraseDetailPage = lazy(() =>
  import('./pages/PhraseDetail.tsx').then((m) => ({ default: m.PhraseDetailPage })),
);
const SettingsPage = lazy(() => import('./pages/Settings.tsx').then((m) => ({ default: m.SettingsPage })));
const Glossary = lazy(() => import('./pages/Glossary.tsx').then((m) => ({ default: m.Glossary })));
const Backups = lazy(() => import('./pages/Backups.tsx').then((m) => ({ default: m.Backups })));
const Install = lazy(() => import('./pages/Install.tsx').then((m) => ({ default: m.Install })));
const Team = lazy(() => import('./pages/Team.tsx').then((m) => ({ default: m.Team })));

export function App() {
  const { apiKey, session, ready } = useAuth();
  const location = useLocation();
  if (!ready) return <Loading />;
  // An invitation opens whether or not this browser is signed in.
  if (location.pathname.startsWith('/invite/'))
    return (
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/invite/:token" element={<AcceptInvite />} />
        </Routes>
      </Suspense>
    );
  if (!apiKey && !session) {
    // `/sign-in` is where single sign-on sends a refusal back.
    if (location.pathname === '/signin' || location.pathname === '/sign-in')
      return (
        <Suspense fallback={<Loading />}>
          <SignIn />
        </Suspense>
      );
    const next = location.pathname + location.search;
    return <Navigate to={`/signin${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`} replace />;
  }
  return (
    <Routes>
      <Route path="/signin" element={<Navigate to="/" replace />} />
      <Route path="/sign-in" element={<Navigate to="/" replace />} />
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/review" replace />} />
        <Route path="review" element={<Review />} />
        <Route path="translations" element={<Grid />} />
        <Route path="ai" element={<AiJobs />} />
        <Route path="prompts" element={<Prompts />} />
        <Route path="glossary" element={<Glossary />} />
        <Route path="analytics" element={<Analytics />} />
        <Route path="analytics/url" element={<UrlDetailPage />} />
        <Route path="analytics/phrases/:id" element={<PhraseDetailPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="backups" element={<Backups />} />
        <Route path="install" element={<Install />} />
        <Route path="team" element={<Team />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return <p>This page does not exist.</p>;
}

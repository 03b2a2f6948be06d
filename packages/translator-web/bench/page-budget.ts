// `npm run bench translator-web/bench/page-budget`: each main page of the built dashboard, in Chromium at
// desktop size, signed in with the key of a project holding 20,000 phrases, each translated into French
// (seeded through the API as the translator's benches do; the last 1,000 left pending, for Review): the
// time from navigation to the page's data drawn with no loader left. Goal (issue 34): under 1 s a page.
import { DESKTOP } from '@app/server-kit/testing/chromium';
import {
  printPageBudget,
  scriptsFetched,
  timePages,
  type BudgetPage,
} from '@app/server-kit/testing/page-budget';
import { api, seedTranslations } from '@app/translator/testing/seed';
import { newPage, signIn, startDashboard } from '../test/browser.ts';

const PHRASES = 20_000;
const PENDING = 1_000;

const dashboard = await startDashboard();
try {
  const { url, key } = dashboard.harness;
  const ids = await seedTranslations(url, key, PHRASES, 'fr');
  await api(url, key, 'PATCH', '/api/textnodes/status', { ids: ids.slice(-PENDING), status: 'pending' });

  const pages: BudgetPage[] = [
    { name: 'review', path: '/review', ready: '[data-testid="review-table"] tbody tr' },
    { name: 'translations', path: '/translations', ready: '[data-testid="grid-table"] tbody tr' },
    { name: 'analytics', path: '/analytics', ready: '[data-testid="summary-cards"]' },
    { name: 'settings', path: '/settings', ready: '[data-testid="language-names"]' },
    // Pages whose data has no element of its own while the project has none of it: their title, loaders gone.
    ...Object.entries({ team: '/team', 'AI jobs': '/ai', glossary: '/glossary', backups: '/backups' }).map(
      ([name, path]) => ({ name, path, ready: 'main h2' }),
    ),
    // Swagger UI has drawn the document's tags (closed; an operation opens on a click).
    { name: 'API docs', path: '/api/docs', ready: '.opblock-tag', goalMs: 2000 },
  ];
  const { page } = await newPage(dashboard.browser, url, DESKTOP);
  const signingIn = await scriptsFetched(page, () => signIn(page, key));
  const timings = await timePages(page, pages, { apiPrefix: '/api/' });
  printPageBudget(
    `Translator dashboard, ${PHRASES.toLocaleString('en')} phrases (fr), desktop`,
    signingIn,
    timings,
  );
} finally {
  await dashboard.stop();
}

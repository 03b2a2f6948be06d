// What each role sees in real Chromium: every page its navigation offers opens without a 403, and the
// write controls its role may not use are absent (with the reason said), those it may use are there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, trackRequests } from '@app/server-kit/testing/axe';
import { navigationPages, walkPages } from '@app/server-kit/testing/control-walk';
import { signedInMember } from '@app/translator/testing';
import { newPage, seedApproved, signInWithPassword, startDashboard, type Dashboard } from './browser.ts';

type Role = 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer';

/** Write controls by page, each with the lowest role that may use it (roles rank as listed). */
const RANK: Role[] = ['viewer', 'translator', 'reviewer', 'manager', 'owner'];
const CONTROLS: Array<{ url: string; name: string | RegExp; from: Role }> = [
  { url: '/review', name: 'Clear pending', from: 'manager' },
  { url: '/review', name: 'Approve', from: 'manager' },
  { url: '/review', name: 'Trash', from: 'manager' },
  { url: '/review', name: 'Delete', from: 'manager' },
  { url: '/review', name: 'Translate with AI', from: 'manager' },
  { url: '/review', name: /^Edit key/, from: 'manager' },
  { url: '/translations?lang=fr', name: 'Save', from: 'translator' },
  { url: '/translations?lang=fr', name: /^Delete the fr translation/, from: 'translator' },
  { url: '/translations?lang=fr', name: /^Review the fr translation/, from: 'reviewer' },
  { url: '/glossary', name: 'Add term', from: 'manager' },
  { url: '/glossary', name: /^Remove /, from: 'manager' },
  { url: '/settings', name: 'Save settings', from: 'manager' },
  { url: '/settings', name: 'Regenerate page key', from: 'owner' },
  { url: '/settings', name: 'Regenerate API key', from: 'owner' },
  { url: '/settings', name: 'Reset project data', from: 'owner' },
  { url: '/backups', name: 'Create backup', from: 'manager' },
  { url: '/backups', name: /^Restore /, from: 'owner' },
  { url: '/backups', name: 'Upload a backup', from: 'owner' },
];

describe('role-aware controls in Chromium', { timeout: 120_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    const { client } = dashboard.harness;
    await seedApproved(dashboard, ['fr'], ['Welcome', 'Goodbye', 'Welcomes']);
    await client.post('/api/textnodes', { keys: [{ key: 'Opening hours' }], url: 'https://shop.test/' });
    await client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Welcome', context: '', value: 'Bienvenue' }],
    });
    await client.post('/api/glossary', { term: 'Bakery', lang: 'fr', translation: 'Boulangerie' });
    await client.post('/api/backups');
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  /** A new member of `role` (translators and reviewers for French) signed in through the form. */
  async function signedInAs(role: Role) {
    const languages = role === 'translator' || role === 'reviewer' ? ['fr'] : [];
    const member = await signedInMember(dashboard.harness, role, languages);
    const { page, context } = await newPage(dashboard.browser, dashboard.harness.url);
    trackRequests(page);
    await signInWithPassword(page, member.email, member.password);
    return { page, context };
  }

  for (const role of RANK)
    it(`${role}: every page opens without a 403, and only the controls the role may use show`, async () => {
      const { page, context } = await signedInAs(role);
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 403) refused.push(`${response.request().method()} ${response.url()}`);
      });
      const pages = await navigationPages(page);
      for (const url of pages) await openPage(page, url);
      expect(refused).toEqual([]);

      const rank = RANK.indexOf(role);
      for (const url of new Set(CONTROLS.map((control) => control.url))) {
        const allowed = pages.some((href) => url.startsWith(href));
        if (!allowed) continue;
        await openPage(page, url);
        for (const { name, from } of CONTROLS.filter((control) => control.url === url)) {
          const count = await page.getByRole('button', { name, exact: typeof name === 'string' }).count();
          const may = rank >= RANK.indexOf(from);
          expect(count > 0, `${url}: ${String(name)} (${role})`).toBe(may);
        }
        if (rank < RANK.indexOf('manager') && !url.startsWith('/translations'))
          expect(await page.getByTestId('not-for-role').count(), url).toBe(1);
      }
      // A grid field a viewer cannot save is read-only.
      const field = page.getByLabel('Translation of "Goodbye" (fr)');
      await openPage(page, '/translations?lang=fr');
      expect(await field.getAttribute('readonly'), role).toBe(role === 'viewer' ? '' : null);
      // The memory's matches show to every role; only one who may translate can put one in the field.
      await page.getByLabel('Translation of "Welcomes" (fr)').focus();
      const memory = page.getByRole('group', { name: 'Translation memory for "Welcomes"' });
      await memory.getByText('Memory: Bienvenue').waitFor();
      expect(await memory.getByRole('button', { name: /^Use the / }).count(), role).toBe(
        role === 'viewer' ? 0 : 1,
      );
      expect(refused).toEqual([]);
      await context.close();
    });

  // The list above names the controls known today; this walk finds every enabled one, the ones added
  // later included, and uses it as a person would (a dialog it opens is confirmed). The owner may use
  // everything; the roles below it run in rank order after every check above, since their clicks change
  // the project (a manager's Clear pending empties the review list).
  for (const role of RANK.slice(0, -1))
    it(`${role}: no enabled control on any page answers 403 when used`, async () => {
      const { page, context } = await signedInAs(role);
      const { used, refusals } = await walkPages(page, [
        ...(await navigationPages(page)),
        '/translations?lang=fr',
      ]);
      expect(refusals).toEqual([]);
      // A walk that found nothing to use would pass whatever the pages show.
      expect(used, role).toBeGreaterThan(0);
      await context.close();
    });
});

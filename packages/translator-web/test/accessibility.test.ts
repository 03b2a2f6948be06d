// Accessibility in real Chromium: axe-core finds no serious or critical violation on any page of the
// translator dashboard, at desktop and phone widths, over phrases pending and approved, translations
// and a backup.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AUDIT_VIEWS, auditPage, closeDialog, openDialog } from '@app/server-kit/testing/axe';
import { startHarness, type Harness } from '@app/translator/testing';
import {
  closeChromium,
  collectErrors,
  distDir,
  ensureBuilt,
  launchChromium,
  newPage,
  packageDir,
  screenshot,
  signIn,
} from './browser.ts';

const PAGE_URL = 'https://bakery.example.test/';

const routesInRouter = () =>
  [...readFileSync(join(packageDir, 'src/App.tsx'), 'utf8').matchAll(/path="([^"]+)"/g)].map((m) => m[1]);

describe('translator dashboard: accessibility', { timeout: 240_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  /** Each route at an address that shows it over the seeded data; `dialog` names a button whose dialog is audited. */
  let pages: Array<{ route: string; url: string; act?: (page: Page) => Promise<void>; dialog?: string }>;

  beforeAll(async () => {
    await ensureBuilt();
    [harness, browser] = await Promise.all([startHarness({}, { staticDir: distDir }), launchChromium()]);
    const { client } = harness;
    await client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
    const keys = ['Welcome to our bakery', 'Fresh bread every morning.', 'Search cakes'].map((key) => ({
      key,
    }));
    expect((await client.post('/api/textnodes', { keys, url: PAGE_URL })).status).toBe(200);
    const rows = (await client.get('/api/translations/all?limit=50&lang=fr')).body.rows as Array<{
      id: number;
      key: string;
    }>;
    const [welcome, bread] = rows;
    const approved = await client.patch('/api/textnodes/status', { ids: [welcome!.id], status: 'approved' });
    expect(approved.status, approved.text).toBe(200);
    const translated = await client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { id: welcome!.id, value: 'Bienvenue dans notre boulangerie' },
        { id: bread!.id, value: 'Du pain frais chaque matin.' },
      ],
    });
    expect(translated.status, translated.text).toBe(200);
    expect((await client.post('/api/backups')).status).toBeLessThan(300);
    const invite = await client.post('/api/members/invites', {
      email: 'ana@example.test',
      role: 'reviewer',
      languages: ['fr'],
    });
    expect(invite.status, invite.text).toBe(201);
    await client.post('/api/members/invites', { email: 'bo@example.test', role: 'viewer' });

    pages = [
      { route: '/signin', url: '/signin' },
      // Where single sign-on sends a refusal back, before signing in like /signin.
      { route: '/sign-in', url: '/sign-in?sso_error=no_account' },
      { route: '/invite/:token', url: invite.body.path as string },
      { route: 'team', url: '/team' },
      { route: 'team', url: '/team', dialog: 'Withdraw the invitation of bo@example.test' },
      { route: 'review', url: '/review' },
      // The bulk actions (Approve…) show once phrases are selected.
      {
        route: 'review',
        url: '/review',
        act: (page) => page.getByLabel('Select the rows of this page').check(),
      },
      { route: 'review', url: '/review?status=approved' },
      { route: 'translations', url: '/translations' },
      { route: 'ai', url: '/ai' },
      { route: 'prompts', url: '/prompts' },
      { route: 'glossary', url: '/glossary' },
      { route: 'analytics', url: '/analytics' },
      { route: 'analytics/url', url: `/analytics/url?url=${encodeURIComponent(PAGE_URL)}` },
      { route: 'analytics/phrases/:id', url: `/analytics/phrases/${welcome!.id}` },
      { route: 'settings', url: '/settings' },
      { route: 'settings', url: '/settings', dialog: 'Regenerate API key' },
      { route: 'backups', url: '/backups' },
      { route: 'install', url: '/install' },
      { route: '*', url: '/no-such-page' },
    ];
  }, 120_000);

  afterAll(async () => {
    await closeChromium(browser);
    await harness?.stop();
  });

  it('covers every route of the router', () => {
    expect(new Set(pages.map((p) => p.route))).toEqual(new Set(routesInRouter()));
  });

  for (const { width, viewport, colorScheme, rules } of AUDIT_VIEWS) {
    it(`has no serious or critical violation on any page at ${width} width, ${colorScheme} scheme`, async () => {
      const { context, page } = await newPage(browser, harness.url, viewport);
      await page.emulateMedia({ colorScheme });
      const errors = collectErrors(page);
      const found = [
        ...(await auditPage(page, '/signin', { rules })),
        ...(await auditPage(page, pages[1]!.url, { rules })),
      ];
      await signIn(page, harness.key);
      for (const { url, act, dialog } of pages.slice(2)) {
        found.push(...(await auditPage(page, url, { act: dialog ? openDialog(dialog) : act, rules })));
        if (act) await screenshot(page, `a11y-review-selected-${width}-${colorScheme}`);
        if (dialog) await closeDialog(page);
      }
      expect(found.length, `axe-core found:\n${found.join('\n')}`).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

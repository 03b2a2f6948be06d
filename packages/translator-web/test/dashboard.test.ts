// The dashboard in real Chromium against the real translator on loopback: a sample page embedding the
// page client registers phrases → sign in → review and approve → provider key → AI job on the fake
// OpenAI server → the sample page shows the translations; plus the grid, analytics, settings, backups,
// key editing, cancelling an AI job, paging a long list, key regeneration and phone-width layout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { startHarness, type Harness } from '@app/translator/testing';
import {
  closeChromium,
  collectErrors,
  distDir,
  ensureBuilt,
  launchChromium,
  newPage,
  PHONE,
  screenshot,
  serveSite,
  signIn,
} from './browser.ts';

const SAMPLE = (server: string, key: string) => `<!doctype html><html lang="en"><head><title>Bakery</title>
<script src="${server}/client.js" data-api-key="${key}"></script></head><body>
<h1>Welcome to our bakery</h1>
<p>Fresh bread every morning.</p>
<p>You have 3 new messages</p>
<input placeholder="Search cakes">
</body></html>`;

const KEYS = [
  'Bakery', // the page's title
  'Welcome to our bakery',
  'Fresh bread every morning.',
  'You have {{number:0}} new messages',
  'Search cakes',
];

interface ListRow {
  id: number;
  key: string;
  status: string;
  value: string | null;
}

describe('translator dashboard in Chromium', { timeout: 90_000 }, () => {
  let harness: Harness;
  let fake: FakeOpenAI;
  let browser: Browser;
  let site: { url: string; close(): Promise<void> };
  let page: Page;
  let errors: string[];

  const rows = async (lang = 'fr'): Promise<ListRow[]> =>
    (await harness.client.get(`/api/translations/all?limit=500&lang=${lang}`)).body.rows;

  beforeAll(async () => {
    await ensureBuilt();
    fake = await startFakeOpenAI({ apiKey: 'sk-dashboard-test', latencyMs: 400 });
    [harness, browser] = await Promise.all([
      startHarness({ ai: { baseUrl: fake.baseUrl, batchSize: 1, parallelCalls: 1 } }, { staticDir: distDir }),
      launchChromium(),
    ]);
    await harness.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
    // The sample page holds the page key, as the Install page tells (its origin, 127.0.0.1, is allowed).
    site = await serveSite({ '/': SAMPLE(harness.url, harness.pageKey) });
    // A visitor opens the customer's page: the page client registers its phrases.
    const visitor = await browser.newPage();
    await visitor.goto(site.url);
    for (let tries = 0; ; tries++) {
      const keys = (await rows()).map((row) => row.key);
      if (KEYS.every((key) => keys.includes(key))) break;
      if (tries > 100) throw new Error(`phrases not registered: ${keys.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await visitor.close();
    ({ page } = await newPage(browser, harness.url));
    errors = collectErrors(page);
  }, 120_000);

  afterAll(async () => {
    await closeChromium(browser);
    await site?.close();
    await harness?.stop();
    await fake?.close();
  });

  it('serves the dashboard at / and for deep links, with /api 404s kept as JSON', async () => {
    const deep = await fetch(`${harness.url}/analytics/url?url=x`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root"></div>');
    // Every page of the suite runs under this policy: a violation is a console error, checked at the end.
    expect(deep.headers.get('content-security-policy')).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    expect(deep.headers.get('x-frame-options')).toBe('DENY');
    const api = await fetch(`${harness.url}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
  });

  it('rejects a wrong key with a clear message and keeps nothing', async () => {
    await page.goto('/review');
    await page.waitForURL('**/signin?next=%2Freview');
    await page.getByLabel('Project API key').fill('not-the-right-key-000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByTestId('signin-error').textContent())
      .toContain('This API key is not valid');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await screenshot(page, 'signin-error');
    // The page key is not a way in.
    await page.getByLabel('Project API key').fill(harness.pageKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByTestId('signin-error').textContent())
      .toContain('This is the project’s page key');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('signs in, lists the pending phrases with slots as chips, and approves them in bulk', async () => {
    await page.getByLabel('Project API key').fill(harness.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/review');
    const table = page.getByTestId('review-table');
    await table.getByText('Welcome to our bakery').waitFor();
    expect(await table.locator('[data-slot="{{number:0}}"]').count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('translator.apiKey'))).toBe(harness.key);

    // Search narrows the list (debounced, in the address so it can be linked).
    await page.getByLabel('Search', { exact: true }).fill('bread');
    await page.waitForURL(/q=bread/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Search', { exact: true }).fill('');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(KEYS.length);
    await screenshot(page, 'review');

    await page.getByLabel('Select the rows of this page').check();
    expect(await page.getByTestId('selected-count').textContent()).toBe(`${KEYS.length} selected`);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByText('Nothing to review').waitFor();
    expect((await rows()).every((row) => row.status === 'approved')).toBe(true);
    await page.getByText(new RegExp(`^Approved \\(${KEYS.length}\\)`)).click();
    await table.getByText('Welcome to our bakery').waitFor();
  });

  it('edits a key with slots: chips preview, slot changes pointed out, varSlots kept consistent', async () => {
    const target = (await rows()).find((row) => row.key.startsWith('You have'))!;
    await page.goto(`/review?status=approved`);
    await page.getByRole('button', { name: `Edit key "${target.key}"` }).click();
    const input = page.getByRole('dialog').getByLabel('Key');
    await input.fill('You have new messages');
    await page.getByRole('dialog').getByText('Removed: {{number:0}}').waitFor();
    await input.fill('{{number:0}} new messages for you');
    expect(await page.getByRole('dialog').locator('[data-slot="{{number:0}}"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const phrase = await harness.client.get(`/api/analytics/phrase-detail?id=${target.id}`);
    expect(phrase.body.key).toBe('{{number:0}} new messages for you');
    // Put it back so the sample page matches again.
    const back = await harness.client.patch(`/api/phrases/${target.id}`, {
      key: 'You have {{number:0}} new messages',
      varSlots: [{ type: 'number', index: 0 }],
    });
    expect(back.status).toBe(200);
  });

  it('stores the AI provider key write-only', async () => {
    // Without a key, an AI job cannot start and the page says where to set one.
    await page.goto('/ai');
    await page.getByText('No AI provider key is set: add one in').waitFor();
    expect(await page.getByRole('button', { name: /^Translate \d+ phrases?$/ }).isDisabled()).toBe(true);
    await page.goto('/settings');
    await page.getByTestId('language-names').getByText('French (fr)').waitFor();
    await page.getByLabel('Provider API key').fill('sk-dashboard-test');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('A key is stored').waitFor();
    expect(await page.getByLabel('Provider API key').inputValue()).toBe('');
    const project = await harness.client.get('/api/project');
    expect(project.body.settings.translationProviderApiKey).toBe('');
    expect(project.body.settings.translationProviderApiKeySet).toBe(true);
    // A field error from the server is shown next to its field.
    const blocked = page.getByRole('combobox', { name: 'Blocked tags' });
    await blocked.fill('nav!');
    await blocked.press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('is not an HTML tag name').waitFor();
    await screenshot(page, 'settings');
    await page.reload();
    await page.getByRole('button', { name: 'Save settings' }).waitFor();
  });

  it('runs an AI job on all untranslated phrases with live progress, then the page shows French', async () => {
    await page.goto('/ai');
    const start = page.getByRole('button', { name: `Translate ${KEYS.length} phrases` });
    await start.waitFor();
    const streamKeys: string[] = [];
    const onRequest = (request: { url(): string; headers(): Record<string, string> }) => {
      if (/\/api\/ai-jobs\/[^/]+\/events$/.test(request.url()))
        streamKeys.push(request.headers()['x-api-key'] ?? '');
    };
    page.on('request', onRequest);
    await start.click();
    const progress = page.getByTestId('job-progress');
    await progress.waitFor();
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const text = (await page.getByTestId('job-counts').textContent()) ?? '';
          seen.add(text);
          return page.getByTestId('job-status').textContent();
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe('completed');
    expect(await page.getByTestId('job-counts').textContent()).toBe(
      `${KEYS.length} of ${KEYS.length} translated`,
    );
    expect(seen.size).toBeGreaterThan(1); // progress moved while we watched
    page.off('request', onRequest);
    // The progress came over the job's event stream, opened with the project key (not by polling).
    expect(streamKeys.length).toBeGreaterThan(0);
    expect(streamKeys.every((key) => key.length > 0)).toBe(true);
    await page.getByTestId('job-history').getByText('completed').waitFor();
    await screenshot(page, 'ai-job');
    expect(fake.requests.every((r) => r.authorization === 'Bearer sk-dashboard-test')).toBe(true);

    const visitor = await browser.newPage();
    await visitor.goto(`${site.url}/?lang=fr`);
    await visitor.waitForSelector('h1[data-loco-translated="fr"]');
    expect(await visitor.textContent('h1')).toBe('[fr] Welcome to our bakery');
    expect(await visitor.title()).toBe('[fr] Bakery');
    expect(await visitor.evaluate(() => document.querySelectorAll('p')[1]!.textContent)).toBe(
      '[fr] You have 3 new messages',
    );
    await visitor.close();
  });

  it('edits and deletes translations inline in the grid, with the untranslated filter', async () => {
    await page.goto('/translations?lang=fr');
    const field = page.getByLabel('Translation of "Welcome to our bakery" (fr)');
    await field.waitFor();
    expect(await field.inputValue()).toBe('[fr] Welcome to our bakery');
    await field.fill('Bienvenue dans notre boulangerie');
    await field.press('Enter');
    // Said beside the cell, not in a toast over the grid.
    const welcomeRow = page.locator('tr', { has: field });
    await welcomeRow.getByTestId('cell-done').getByText('Saved').waitFor();
    await expect
      .poll(async () => (await rows()).find((row) => row.key === 'Welcome to our bakery')?.value)
      .toBe('Bienvenue dans notre boulangerie');

    // A translation must keep the key's slots: the field says which is missing, and it is not sent.
    const slotted = page.getByLabel('Translation of "You have {{number:0}} new messages" (fr)');
    const before = (await rows()).find((row) => row.key === 'You have {{number:0}} new messages')?.value;
    await slotted.fill('Vous avez des messages');
    await page.getByText('Missing slot {{number:0}}').waitFor();
    await slotted.press('Enter');
    await screenshot(page, 'grid');
    expect(
      await page
        .locator('tr', { has: slotted })
        .getByRole('button', { name: 'Save', exact: true })
        .isDisabled(),
    ).toBe(true);
    expect((await rows()).find((row) => row.key === 'You have {{number:0}} new messages')?.value).toBe(
      before,
    );
    await slotted.press('Escape');

    await page.getByRole('button', { name: 'Delete the fr translation of "Search cakes"' }).click();
    await page
      .locator('tr', { has: page.getByLabel('Translation of "Search cakes" (fr)') })
      .getByTestId('cell-done')
      .getByText('Deleted')
      .waitFor();
    await page.getByRole('switch', { name: 'Untranslated only' }).click();
    await page.waitForURL(/untranslated=1/);
    await expect.poll(() => page.getByTestId('grid-table').locator('tbody tr').count()).toBe(1);
    await page.getByTestId('grid-table').getByText('Search cakes').waitFor();
  });

  it('shows analytics with coverage, activity and a URL drill-down, and a phrase with its translations', async () => {
    await page.goto('/analytics');
    await page.getByTestId('summary-cards').getByText('Translations').waitFor();
    await page.getByTestId('coverage').getByText('French (fr)').waitFor();
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    const link = page.getByTestId('url-table').getByRole('link', { name: `${site.url}/` });
    // Figures line up on the right, text on the left.
    const alignOf = (column: number) =>
      page
        .getByTestId('url-table')
        .locator(`tbody tr:first-child td:nth-child(${column})`)
        .evaluate((cell) => getComputedStyle(cell).textAlign);
    expect([await alignOf(1), await alignOf(2)]).toEqual(['start', 'end']);
    await screenshot(page, 'analytics');
    await link.click();
    await page.getByRole('heading', { name: 'Page detail' }).waitFor();
    expect(await page.getByTestId('detail-url').textContent()).toBe(`${site.url}/`);
    await page.getByRole('link', { name: 'Review this page’s phrases' }).click();
    await page.getByTestId('review-table').getByText('Welcome to our bakery').waitFor();

    await page.getByRole('link', { name: 'Details of "Welcome to our bakery"' }).click();
    await page.getByTestId('phrase-translations').getByText('Bienvenue dans notre boulangerie').waitFor();
  });

  it('manages prompts', async () => {
    await page.goto('/prompts');
    await page.getByRole('button', { name: 'New prompt' }).click();
    await page.getByLabel('Name').first().fill('Formal');
    await page.getByLabel('Instructions').first().fill('Translate formally. Keep {{slot}} tokens.');
    await page.getByRole('button', { name: 'Add prompt' }).click();
    await page.getByText('Prompt added').waitFor();
    const list = await harness.client.get('/api/prompts');
    expect(list.body.map((p: { name: string }) => p.name)).toContain('Formal');
  });

  it('links the API docs from the navigation, which render the API', async () => {
    const [docs] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'API docs' }).click(),
    ]);
    // Swagger UI shows the document's tags once it has read it: seconds of CPU on a loaded 2-core
    // machine, so this wait is the rendering's, not the default 15 s. A tag opens to its operations.
    await docs.locator('.opblock-tag[data-tag="translations"]').click({ timeout: 60_000 });
    await docs.waitForSelector('.opblock-summary-path[data-path="/translations"]', { timeout: 60_000 });
    await docs.close();
  });

  it('creates, lists and deletes backups, and downloads exports', async () => {
    await page.goto('/backups');
    await page.getByRole('button', { name: 'Create backup' }).click();
    const table = page.getByTestId('backup-table');
    await table.waitFor();
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'French (fr)' }).click(),
    ]);
    expect(exported.suggestedFilename()).toBe('translations-fr.json');
    const [snapshot] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download current data' }).click(),
    ]);
    expect(snapshot.suggestedFilename()).toMatch(/\.sqlite$/);
    await screenshot(page, 'backups');
    const filename = (await harness.client.get('/api/backups')).body[0].filename as string;
    // A stored backup downloads as itself, through the key-authenticated API.
    const [stored] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download ${filename}` }).click(),
    ]);
    expect(stored.suggestedFilename()).toBe(filename);
    const bytes = readFileSync((await stored.path())!);
    expect(bytes.equals(readFileSync(join(harness.config.backup.dir, filename)))).toBe(true);
    expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    await page.getByRole('button', { name: `Delete ${filename}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No backups yet.').waitFor();
  });

  it('shows the install snippet with this server and the page key, and the origins that may use it', async () => {
    await page.goto('/install');
    await page.getByTestId('install-snippet').waitFor();
    expect(await page.getByTestId('install-snippet').textContent()).toBe(
      `<script src="${harness.url}/client.js" data-api-key="${harness.pageKey}"></script>`,
    );
    expect(await page.getByTestId('install-origins').textContent()).toContain('http://127.0.0.1:*');
  });

  it('edits the allowed origins, with the server’s message under the field', async () => {
    await page.goto('/settings');
    const origins = page.getByRole('combobox', { name: 'Allowed origins' });
    await origins.fill('shop.example');
    await origins.press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('"shop.example" is not an origin such as').waitFor();
    await origins.press('Backspace'); // removes the refused entry
    await origins.fill('https://*.Shop.example');
    await origins.press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    await expect
      .poll(async () => (await harness.client.get('/api/project')).body.settings.allowedOrigins)
      .toContain('https://*.shop.example');
    await screenshot(page, 'settings-origins');
  });

  it('turns SEO mode on with the site’s origin, refusing an address that is not one', async () => {
    await page.goto('/settings');
    const origin = page.getByRole('textbox', { name: "SEO mode: the site's origin" });
    const publicUrl = page.getByRole('textbox', { name: "The site's public address" });
    expect(await publicUrl.isDisabled()).toBe(true);
    await origin.fill('ftp://files.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('"ftp://files.example" is not an origin such as https://www.shop.example').waitFor();
    await origin.fill('http://127.0.0.1:8080');
    await publicUrl.fill('https://Shop.example/');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const { settings } = (await harness.client.get('/api/project')).body;
    expect([settings.seoOrigin, settings.seoPublicUrl]).toEqual([
      'http://127.0.0.1:8080',
      'https://shop.example',
    ]);
    await harness.client.patch('/api/project/settings', { settings: { seoOrigin: '', seoPublicUrl: '' } });
  });

  for (const [name, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const)
    it(`says, signed in with the key, why in-page editing and a loopback SEO origin are refused (${name})`, async () => {
      const tab = await newPage(browser, harness.url, viewport);
      await signIn(tab.page, harness.key);
      await tab.page.goto(`/analytics/url?url=${encodeURIComponent(`${site.url}/`)}`);
      const edit = tab.page.getByRole('button', { name: 'Edit on this page' });
      await edit.waitFor();
      expect(await edit.isDisabled()).toBe(true);
      const reason = tab.page.getByText('In-page editing needs a member account, not the project API key');
      expect(await reason.isVisible()).toBe(true);
      expect(await edit.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));
      await screenshot(tab.page, `edit-on-page-with-key-${name}`);
      await tab.page.getByRole('link', { name: 'invite yourself under Team' }).click();
      await tab.page.getByRole('heading', { name: 'Team' }).waitFor();

      await tab.page.goto('/settings');
      const origin = tab.page.getByRole('textbox', { name: "SEO mode: the site's origin" });
      await origin.fill('http://127.0.0.2:8080');
      await tab.page.getByRole('button', { name: 'Save settings' }).click();
      const message = tab.page.getByText('"http://127.0.0.2:8080" cannot be fetched');
      await message.waitFor();
      expect(await message.textContent()).toContain(
        'TRANSLATOR_SEO_ORIGIN_ALLOWLIST (such as 127.0.0.2:8080)',
      );
      // Under the field, within the screen.
      const [field, under] = [(await origin.boundingBox())!, (await message.boundingBox())!];
      expect(under.y).toBeGreaterThanOrEqual(field.y + field.height);
      expect(under.x + under.width).toBeLessThanOrEqual(tab.page.viewportSize()!.width);
      expect((await harness.client.get('/api/project')).body.settings.seoOrigin).toBe('');
      await screenshot(tab.page, `settings-seo-refused-${name}`);
      await tab.context.close();
    });

  it('warns on every page when the full key was used from a web page, until dismissed', async () => {
    const leaked = await harness.client.get('/api/languages', {
      headers: { origin: 'https://old-shop.example' },
    });
    expect(leaked.status).toBe(200);
    await page.goto('/review');
    const warning = page.getByTestId('full-key-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Your full key was used from https://old-shop.example');
    await screenshot(page, 'full-key-warning');
    await page.getByRole('link', { name: 'Analytics' }).click();
    await warning.waitFor();
    await warning.getByRole('button', { name: 'Dismiss' }).click();
    await warning.waitFor({ state: 'detached' });
    expect((await harness.client.get('/api/project')).body.full_key_used_from).toBeNull();
    await page.reload();
    await page.getByTestId('summary-cards').waitFor();
    expect(await warning.count()).toBe(0);
  });

  it('is usable at phone width', async () => {
    const phone = await newPage(browser, harness.url, PHONE);
    await signIn(phone.page, harness.key);
    await phone.page.getByRole('button', { name: 'Open navigation' }).click();
    await phone.page.getByRole('link', { name: 'Analytics' }).click();
    await phone.page.getByTestId('summary-cards').waitFor();
    await screenshot(phone.page, 'phone-analytics');
    await phone.page.goto('/review?status=approved');
    await phone.page.getByTestId('review-table').getByText('Welcome to our bakery').waitFor();
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'phone-review');
    await phone.context.close();
  });

  it('says a page could not be shown when its code cannot be fetched, without a stack trace; going back recovers', async () => {
    const tab = await newPage(browser, harness.url);
    await signIn(tab.page, harness.key);
    const glossaryCode = /\/assets\/Glossary-[^/]+\.js$/;
    await tab.page.route(glossaryCode, (route) => route.abort());
    await tab.page.getByRole('link', { name: 'Glossary' }).click();
    const crashed = tab.page.getByRole('alert').filter({ hasText: 'This page could not be shown' });
    await crashed.waitFor();
    expect(await crashed.textContent()).toContain('Reload to try again, or go back');
    expect(await tab.page.locator('pre').count()).toBe(0);
    await tab.page.goBack();
    await tab.page.getByRole('heading', { name: 'Review phrases' }).waitFor();
    expect(await crashed.count()).toBe(0);
    await tab.context.close();
  });

  it('cancels a running AI job from its progress panel; the history shows it cancelled', async () => {
    fake.set({ latencyMs: 3000 }); // one phrase per call: the job runs for seconds
    try {
      await page.goto('/ai');
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'German (de)' }).click();
      const start = page.getByRole('button', { name: `Translate ${KEYS.length} phrases` });
      await start.click();
      // Pending until the runner claims it (one job per project at a time: an earlier test's may still end).
      await expect
        .poll(() => page.getByTestId('job-status').textContent(), { timeout: 15_000 })
        .toBe('running');
      const jobId = new URL(page.url()).searchParams.get('job')!;
      await page.getByRole('button', { name: 'Cancel job' }).click();
      await page.getByText('Job cancelled').waitFor();
      await expect.poll(() => page.getByTestId('job-status').textContent()).toBe('cancelled');
      await page.getByRole('button', { name: 'Cancel job' }).waitFor({ state: 'detached' });
      await page.getByTestId('job-history').getByText('cancelled').waitFor();
      await screenshot(page, 'ai-job-cancelled');
      const job = (await harness.client.get(`/api/ai-jobs/${jobId}`)).body;
      expect(job).toMatchObject({ status: 'cancelled', lang: 'de', total: KEYS.length });
      expect(job.completed).toBeLessThan(KEYS.length);
      // The call in flight at the cancel writes nothing when it returns.
      await expect.poll(() => fake.inFlight(), { timeout: 10_000 }).toBe(0);
      const german = (await rows('de')).filter((row) => row.value !== null);
      expect(german).toHaveLength(job.completed);
    } finally {
      fake.set({ latencyMs: 400 });
    }
  });

  it('pages through a long phrase list 50 at a time, the page kept in the address', async () => {
    // Digits would become slots ({{number:0}}): the items are told apart by letters.
    const code = (i: number) =>
      [676, 26, 1].map((d) => String.fromCharCode(97 + (Math.floor(i / d) % 26))).join('');
    const keys = Array.from({ length: 120 }, (_, i) => ({ key: `Paging item ${code(i)}` }));
    expect((await harness.client.post('/api/textnodes', { keys, url: `${site.url}/long` })).status).toBe(200);
    const added = (await rows()).filter((row) => row.key.startsWith('Paging item'));
    expect(added).toHaveLength(120);
    try {
      await page.goto('/review');
      const table = page.getByTestId('review-table');
      const pager = page.getByTestId('list-pager');
      await pager.getByText('120 phrases').waitFor();
      const keysShown = async () =>
        (await table.locator('tbody tr').allTextContents()).map(
          (text) => /Paging item [a-z]{3}/.exec(text)?.[0] ?? '',
        );
      const seen: string[] = [];
      for (const [number, count] of [
        [1, 50],
        [2, 50],
        [3, 20],
      ] as const) {
        if (number > 1) {
          await pager.getByRole('button', { name: `Page ${number}` }).click();
          await page.waitForURL(new RegExp(`[?&]page=${number}`));
        }
        // The previous page stays on screen while the next one loads: wait for rows not seen before.
        await expect
          .poll(async () => {
            const shown = await keysShown();
            return shown.length === count && shown.every((key) => key && !seen.includes(key));
          })
          .toBe(true);
        const pageKeys = await keysShown();
        seen.push(...pageKeys);
      }
      expect(new Set(seen).size).toBe(120);
      await screenshot(page, 'review-paged');
      // Back with the pager's control, and straight to a page from the address.
      await pager.getByRole('button', { name: 'Previous page' }).click();
      await page.waitForURL(/[?&]page=2/);
      await expect.poll(() => table.locator('tbody tr').count()).toBe(50);
      await page.goto('/review?page=3');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(20);
    } finally {
      await harness.client.post('/api/textnodes/bulk-delete', { ids: added.map((row) => row.id) });
    }
  });

  it('shows the page key in Settings and regenerates it on its own; the install snippet follows', async () => {
    const oldPageKey = harness.pageKey;
    await page.goto('/settings');
    expect(await page.getByTestId('page-key').textContent()).toBe(oldPageKey);
    await page.getByRole('button', { name: 'Regenerate page key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate page key' }).click();
    await expect.poll(() => page.getByTestId('page-key').textContent()).not.toBe(oldPageKey);
    const newPageKey = (await page.getByTestId('page-key').textContent())!;
    expect(newPageKey).toMatch(/^tpk_/);
    const headers = { 'x-api-key': oldPageKey, origin: site.url };
    expect((await fetch(`${harness.url}/api/languages`, { headers })).status).toBe(401);
    // The dashboard still works with the full key it signed in with.
    await page.getByRole('link', { name: 'Install' }).click();
    await expect.poll(() => page.getByTestId('install-snippet').textContent()).toContain(newPageKey);
  });

  it('regenerates the key behind a confirmation, shows it once and switches to it', async () => {
    const oldKey = harness.key;
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Regenerate API key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate key' }).click();
    const newKey = (await page.getByTestId('new-api-key').textContent())!;
    expect(newKey).toHaveLength(24);
    expect(newKey).not.toBe(oldKey);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('translator.apiKey'))).toBe(newKey);
    const old = await fetch(`${harness.url}/api/translations/counts`, { headers: { 'x-api-key': oldKey } });
    expect(old.status).toBe(401);
    await page.getByRole('link', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
    await page.getByText(/^Approved \(/).click();
    await page.getByTestId('review-table').getByText('Welcome to our bakery').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Project API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { signedInMember, startHarness, type Harness } from '@app/translator/testing';
import { accessibilityViolations } from '@app/server-kit/testing/axe';
import { closeChromium, collectErrors, launchChromium, serveSite } from './browser.ts';

// Pages hold the publishable page key; the test sites are on http://127.0.0.1:<port>, one of the default
// project's allowed origins outside production.
const script = (harness: Harness, extra = '') =>
  `<script src="${harness.url}/client.js" data-api-key="${harness.pageKey}"${extra}></script>`;

const STATIC_PAGE = (
  tag: string,
) => `<!doctype html><html lang="en"><head><title>Shop</title>${tag}</head><body>
<header><h1>Welcome to our shop</h1><img src="data:," alt="Shop logo"></header>
<main>
  <input placeholder="Search products"><button title="Start the search" aria-label="Search now">Go</button>
  <p>Fresh bread every morning.</p>
  <p data-loco-ignore="true">Do not translate this</p>
  <p translate="no">Brand Name Ltd</p>
  <code>npm install shop</code><script>var secret = "Script text";</script>
  <p>Contact us at help@shop.example</p><p>Call +1 (555) 123-4567</p><p>Order 20240512</p>
  <p>Email<strong>*</strong></p>
  <p>You have 3 new messages</p>
</main></body></html>`;

async function waitForKeys(harness: Harness, keys: string[]) {
  await expect
    .poll(
      async () => {
        const response = await harness.client.get('/api/translations/all?limit=500');
        return response.body.rows.map((row: { key: string }) => row.key);
      },
      { timeout: 10_000 },
    )
    .toEqual(expect.arrayContaining(keys));
}

/** Approves every phrase and stores a translation for each key given. */
async function translate(harness: Harness, lang: string, values: Record<string, string>) {
  const rows = (await harness.client.get('/api/translations/all?limit=500')).body.rows as { id: number }[];
  await harness.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
  const saved = await harness.client.post('/api/translations', {
    lang,
    translations: Object.entries(values).map(([key, value]) => ({ key, context: '', value })),
  });
  expect(saved.status).toBeLessThan(300);
}

describe('page client in Chromium against the real translator', () => {
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    harness = await startHarness();
    await harness.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await closeChromium(browser);
    await harness?.stop();
  });

  it('registers the page text, skips code and personal data, and translates it with slots filled back', async () => {
    const site = await serveSite({ '/': STATIC_PAGE(script(harness)) });
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(site.url);
    const original = await page.evaluate(() => document.body.innerHTML);
    await waitForKeys(harness, [
      'Welcome to our shop',
      'Shop logo',
      'Search products',
      'Start the search',
      'Search now',
      'Fresh bread every morning.',
      'Email{{text:0}}',
      'You have {{number:0}} new messages',
    ]);
    const keys = (
      (await harness.client.get('/api/translations/all?limit=500')).body.rows as { key: string }[]
    ).map((row) => row.key);
    for (const never of [
      'Do not translate this',
      'Brand Name Ltd',
      'npm install shop',
      'Script text',
      'help@shop.example',
      '555',
      '20240512',
    ]) {
      expect(keys.join('\n')).not.toContain(never);
    }
    const registered = await harness.client.get('/api/analytics/urls');
    expect(registered.body.rows[0].url).toBe(`${site.url}/`);

    await translate(harness, 'fr', {
      'Welcome to our shop': 'Bienvenue dans notre boutique',
      'Shop logo': 'Logo de la boutique',
      'Search products': 'Chercher des produits',
      'Start the search': 'Lancer la recherche',
      'Fresh bread every morning.': 'Du pain frais chaque matin.',
      'Email{{text:0}}': 'Courriel{{text:0}}',
      'You have {{number:0}} new messages': 'Vous avez {{number:0}} nouveaux messages',
    });

    await page.goto(`${site.url}/?lang=fr`);
    await page.waitForSelector('[data-loco-translated="fr"]');
    await page.evaluate(
      () => ((document.querySelector('strong') as unknown as { tagged: boolean }).tagged = true),
    );
    expect(await page.textContent('h1')).toBe('Bienvenue dans notre boutique');
    expect(await page.getAttribute('img', 'alt')).toBe('Logo de la boutique');
    expect(await page.getAttribute('input', 'placeholder')).toBe('Chercher des produits');
    expect(await page.getAttribute('button', 'aria-label')).toBe('Search now'); // no translation yet
    expect(await page.evaluate(() => document.querySelectorAll('p')[6]!.textContent)).toBe('Courriel*');
    expect(await page.evaluate(() => document.querySelectorAll('p')[7]!.textContent)).toBe(
      'Vous avez 3 nouveaux messages',
    );
    expect(await page.textContent('[translate="no"]')).toBe('Brand Name Ltd');
    expect(await page.evaluate(() => window.Loco.getLanguage())).toBe('fr');

    // Back to the original without a reload: the page is exactly as it was.
    await page.evaluate(() => window.Loco.setLanguage(null));
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(original);
    expect(
      await page.evaluate(() => (document.querySelector('strong') as unknown as { tagged: boolean }).tagged),
    ).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    await site.close();
  });

  it('exposes window.Loco.textnodes() with key, context and element', async () => {
    const site = await serveSite({ '/': STATIC_PAGE(script(harness)) });
    const page = await browser.newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => window.Loco.textnodes().length > 0);
    const nodes = await page.evaluate(() =>
      window.Loco.textnodes().map((n) => ({ key: n.key, context: n.context, tag: n.element.tagName })),
    );
    expect(nodes).toContainEqual({ key: 'Welcome to our shop', context: '', tag: 'H1' });
    expect(nodes).toContainEqual({ key: 'You have {{number:0}} new messages', context: '', tag: 'P' });
    await page.close();
    await site.close();
  });

  it('keeps a React app working while it re-renders translated text, and follows client-side routes', async () => {
    const app = await build({
      entryPoints: [fileURLToPath(new URL('./fixtures/react-app.tsx', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"development"' },
    });
    const site = await serveSite({
      '/': `<!doctype html><html><head>${script(harness, ' data-lang="de"')}</head><body><div id="root"></div><script src="/app.js"></script></body></html>`,
      '/app.js': app.outputFiles[0]!.text,
    });
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(site.url);
    await waitForKeys(harness, ['Counter page', 'Clicked {{number:0}} times', 'Increment']);
    await page.click('a#about');
    await waitForKeys(harness, ['About us', 'We bake bread.']);
    await page.goto(site.url);
    await translate(harness, 'de', {
      'Counter page': 'Zählerseite',
      'Clicked {{number:0}} times': '{{number:0}} Mal geklickt',
      Increment: 'Erhöhen',
      'About us': 'Über uns',
      'We bake bread.': 'Wir backen Brot.',
    });
    await page.reload();
    await page.waitForSelector('h2[data-loco-translated="de"]');
    expect(await page.textContent('h2')).toBe('Zählerseite');
    expect(await page.textContent('output')).toBe('0 Mal geklickt');
    await page.click('button#inc');
    await page.click('button#inc');
    await expect.poll(() => page.textContent('output')).toBe('2 Mal geklickt');
    expect(await page.textContent('button#inc')).toBe('Erhöhen');

    // A client-side route change renders new text, which is translated as it appears.
    await page.click('a#about');
    await expect.poll(() => page.textContent('h2')).toBe('Über uns');
    await expect.poll(() => page.textContent('section p')).toBe('Wir backen Brot.');
    expect(new URL(page.url()).pathname).toBe('/about');
    await page.click('a#home');
    await expect.poll(() => page.textContent('output')).toBe('2 Mal geklickt');
    expect(errors).toEqual([]);
    await page.close();
    await site.close();
  });

  it('translates web components: text in their shadow roots, nested ones, and what they render later', async () => {
    const app = await build({
      entryPoints: [fileURLToPath(new URL('./fixtures/lit-app.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
    });
    const site = await serveSite({
      '/': `<!doctype html><html><head>${script(harness)}</head><body><todo-app><p>Made with Lit</p></todo-app><script src="/app.js"></script></body></html>`,
      '/app.js': app.outputFiles[0]!.text,
    });
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(site.url);
    // What a component renders after a click is registered too.
    await page.locator('#new').fill('Buy bread');
    await page.locator('#add').click();
    await waitForKeys(harness, [
      'Things to do',
      'What needs to be done?',
      'Add it',
      '{{number:0}} items left',
      'Made with Lit',
      'Buy bread',
    ]);
    await translate(harness, 'fr', {
      'Things to do': 'Choses à faire',
      'What needs to be done?': 'Que faut-il faire ?',
      'Add it': 'Ajouter',
      '{{number:0}} items left': '{{number:0}} tâches restantes',
      'Made with Lit': 'Fait avec Lit',
      'Buy bread': 'Acheter du pain',
    });
    await page.goto(`${site.url}/?lang=fr`);
    // Playwright's CSS locators pierce open shadow roots.
    await expect.poll(() => page.locator('h1').textContent()).toBe('Choses à faire');
    expect(await page.locator('#new').getAttribute('placeholder')).toBe('Que faut-il faire ?');
    expect(await page.locator('#add').textContent()).toBe('Ajouter');
    expect(await page.locator('#left').textContent()).toBe('0 tâches restantes');
    expect(await page.locator('p').textContent()).toBe('Fait avec Lit');

    // The components re-render: new items and the nested footer's count are translated as they change.
    await page.locator('#new').fill('Buy bread');
    await page.locator('#add').click();
    await expect.poll(() => page.locator('#left').textContent()).toBe('1 tâches restantes');
    await expect.poll(() => page.locator('li').textContent()).toBe('Acheter du pain');

    await page.evaluate(() => window.Loco.setLanguage(null));
    expect(await page.locator('h1').textContent()).toBe('Things to do');
    expect(await page.locator('#left').textContent()).toBe('1 items left');
    expect(await page.locator('li').textContent()).toBe('Buy bread');
    expect(errors).toEqual([]);
    await page.close();
    await site.close();
  });

  it('switches between languages and back to the original without a reload', async () => {
    await translate(harness, 'de', { 'Welcome to our shop': 'Willkommen in unserem Laden' });
    const site = await serveSite({ '/': STATIC_PAGE(script(harness)) });
    const page = await browser.newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => window.Loco.textnodes().length > 0);
    await page.evaluate(() => window.Loco.setLanguage('fr'));
    expect(await page.textContent('h1')).toBe('Bienvenue dans notre boutique');
    await page.evaluate(() => window.Loco.setLanguage('de'));
    expect(await page.textContent('h1')).toBe('Willkommen in unserem Laden');
    expect(await page.evaluate(() => localStorage.getItem('loco:lang'))).toBe('de');
    await page.evaluate(() => window.Loco.setLanguage(null));
    expect(await page.textContent('h1')).toBe('Welcome to our shop');
    expect(await page.$('[data-loco-translated]')).toBeNull();
    await page.close();
    await site.close();
  });

  it('is refused on a page whose origin the project does not allow: nothing registered or translated', async () => {
    const allowed = ['http://localhost:*'];
    await harness.client.patch('/api/project/settings', { settings: { allowedOrigins: allowed } });
    const site = await serveSite({
      '/': STATIC_PAGE(script(harness)).replace('<h1>', '<p>Only on the refused page</p><h1>'),
    });
    try {
      const page = await browser.newPage();
      const blocked = page.waitForEvent('console', (message) =>
        /\/api\/textnodes.*blocked by CORS policy/.test(message.text()),
      );
      await page.goto(`${site.url}/?lang=fr`);
      await blocked;
      expect(await page.textContent('h1')).toBe('Welcome to our shop');
      expect(await page.$('[data-loco-translated]')).toBeNull();
      const found = await harness.client.get('/api/translations/all?search=refused%20page');
      expect(found.body.total).toBe(0);
      // What the browser was not allowed to read: the server refused the page's origin.
      const direct = await fetch(`${harness.url}/api/textnodes`, {
        method: 'POST',
        headers: { 'x-api-key': harness.pageKey, origin: site.url, 'content-type': 'application/json' },
        body: JSON.stringify({ keys: [{ key: 'Only on the refused page' }] }),
      });
      expect(direct.status).toBe(403);
      expect((await direct.json()).error.message).toContain(site.url);
      await page.close();
    } finally {
      await site.close();
      await harness.client.patch('/api/project/settings', {
        settings: { allowedOrigins: ['http://127.0.0.1:*'] },
      });
    }
  });

  const HEAD_PAGE = (tag: string, body: string) => `<!doctype html><html lang="en"><head>
<title>Our village bakery</title>
<meta name="description" content="Sourdough baked in the village every night">
<meta name="viewport" content="width=device-width">
${tag}</head><body>${body}</body></html>`;

  it('translates the title and the description, and says the language in <html lang>', async () => {
    const site = await serveSite({ '/': HEAD_PAGE(script(harness), '<h1>Bread for the village</h1>') });
    const page = await browser.newPage();
    await page.goto(site.url);
    await waitForKeys(harness, [
      'Our village bakery',
      'Sourdough baked in the village every night',
      'Bread for the village',
    ]);
    await translate(harness, 'fr', {
      'Our village bakery': 'Notre boulangerie de village',
      'Sourdough baked in the village every night': 'Du levain cuit au village chaque nuit',
      'Bread for the village': 'Du pain pour le village',
    });
    await page.goto(`${site.url}/?lang=fr`);
    await page.waitForSelector('h1[data-loco-translated="fr"]');
    expect(await page.title()).toBe('Notre boulangerie de village');
    expect(await page.getAttribute('meta[name="description"]', 'content')).toBe(
      'Du levain cuit au village chaque nuit',
    );
    expect(await page.getAttribute('meta[name="viewport"]', 'content')).toBe('width=device-width');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');

    await page.evaluate(() => window.Loco.setLanguage(null));
    expect(await page.title()).toBe('Our village bakery');
    expect(await page.getAttribute('meta[name="description"]', 'content')).toBe(
      'Sourdough baked in the village every night',
    );
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.close();
    await site.close();
  });

  it('translates the words inside inline formatting as phrases of their own', async () => {
    const site = await serveSite({
      '/': HEAD_PAGE(script(harness), '<p>Baked with <b>organic flour</b> every day</p>'),
    });
    const page = await browser.newPage();
    await page.goto(site.url);
    await waitForKeys(harness, ['Baked with {{text:0}} every day', 'organic flour']);
    // Reviewers see the words the slot holds.
    const sentence = (await harness.client.get('/api/translations/all?search=Baked%20with')).body.rows[0];
    expect(sentence.slotTexts).toEqual(['organic flour']);
    await translate(harness, 'fr', {
      'Baked with {{text:0}} every day': 'Cuit avec {{text:0}} chaque jour',
      'organic flour': 'de la farine bio',
    });
    await page.goto(`${site.url}/?lang=fr`);
    await page.waitForSelector('p[data-loco-translated="fr"]');
    expect(await page.innerHTML('p')).toBe(
      'Cuit avec <b data-loco-translated="fr">de la farine bio</b> chaque jour',
    );
    await page.evaluate(() => window.Loco.setLanguage(null));
    expect(await page.innerHTML('p')).toBe('Baked with <b>organic flour</b> every day');
    await page.close();
    await site.close();
  });

  /** An English page with the switcher, opened once by an English browser; its heading has French. */
  async function openSwitcherPage() {
    const site = await serveSite({
      '/': HEAD_PAGE(
        script(harness, ' data-switcher="#languages"'),
        '<div id="languages"></div><h1>Bread for the village</h1>',
      ),
    });
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(site.url);
    await waitForKeys(harness, ['Bread for the village']);
    await translate(harness, 'fr', { 'Bread for the village': 'Du pain pour le village' });
    return { site, context, page };
  }

  it('renders a language switcher a keyboard alone can use, which remembers the choice', async () => {
    const { site, context, page } = await openSwitcherPage();
    await page.reload();
    const button = page.locator('loco-language-switcher button');
    await expect.poll(() => button.getAttribute('aria-label')).toBe('Language: English');
    expect(await accessibilityViolations(page)).toEqual([]);
    /** What has the focus, inside the switcher's shadow root. */
    const focused = () =>
      page.evaluate(() => {
        const inner = document.activeElement?.shadowRoot?.activeElement;
        return inner
          ? `${inner.tagName.toLowerCase()}:${inner.textContent}`
          : document.activeElement?.tagName;
      });

    await page.keyboard.press('Tab');
    expect(await focused()).toBe('button:English');
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    // The list names each language in its own language, the current one first in focus and marked.
    expect(await page.locator('loco-language-switcher a').allTextContents()).toEqual([
      'English',
      'Français',
      'Deutsch',
    ]);
    expect(await focused()).toBe('a:English');
    expect(await page.locator('loco-language-switcher a[aria-current="true"]').textContent()).toBe('English');
    expect(
      await page.locator('loco-language-switcher a', { hasText: 'Français' }).getAttribute('hreflang'),
    ).toBe('fr');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('a:Deutsch');
    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('button:English');

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('a:Français');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('h1')).toBe('Du pain pour le village');
    expect(await button.textContent()).toBe('Français');
    expect(await focused()).toBe('button:Français');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');

    // The choice is kept for the next visit; the switcher's own words are never registered as phrases.
    await page.reload();
    await page.waitForSelector('h1[data-loco-translated="fr"]');
    await expect.poll(() => button.textContent()).toBe('Français');
    const keys = (await harness.client.get('/api/translations/all?limit=500')).body.rows.map(
      (row: { key: string }) => row.key,
    );
    expect(keys).not.toContain('Français');
    expect(keys).not.toContain('English');
    await context.close();
    await site.close();
  });

  it('offers only languages with delivered translations, and keeps the original for a stored choice of another', async () => {
    await harness.client.patch('/api/project/settings', { settings: { languages: ['fr', 'it'] } });
    const { site, context, page } = await openSwitcherPage();
    try {
      // Italian is configured but has no translation: a visitor who chose it earlier sees the original.
      await page.evaluate(() => localStorage.setItem('loco:lang', 'it'));
      await page.reload();
      const button = page.locator('loco-language-switcher button');
      await expect.poll(() => button.getAttribute('aria-label')).toBe('Language: English');
      expect(await page.locator('loco-language-switcher a').allTextContents()).toEqual([
        'English',
        'Français',
      ]);
      expect(await page.evaluate(() => window.Loco.getLanguage())).toBeNull();
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.textContent('h1')).toBe('Bread for the village');
      // The page's own script may not set it either: it warns and the page stays as it is.
      const warnings: string[] = [];
      page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
      await page.evaluate(() => window.Loco.setLanguage('it'));
      expect(await page.evaluate(() => window.Loco.getLanguage())).toBeNull();
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(warnings.join('\n')).toContain('"it" has no delivered translation');
      await page.evaluate(() => window.Loco.setLanguage('fr'));
      expect(await page.getAttribute('html', 'lang')).toBe('fr');
    } finally {
      await context.close();
      await site.close();
      await harness.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
    }
  });

  it('lets a signed-in reviewer edit a translation on the live page; a visitor sees no editing', async () => {
    const site = await serveSite({
      '/': HEAD_PAGE(script(harness), '<h1>Fresh loaves daily</h1><p>Open on Sundays</p>'),
    });
    const page = await browser.newPage();
    await page.goto(site.url);
    await waitForKeys(harness, ['Fresh loaves daily', 'Open on Sundays']);
    await translate(harness, 'fr', { 'Fresh loaves daily': 'Des pains frais chaque jour' });
    await translate(harness, 'de', { 'Open on Sundays': 'Sonntags geöffnet' });

    // A visitor: no toolbar, and Alt+click is an ordinary click.
    await page.goto(`${site.url}/?lang=fr`);
    await page.waitForSelector('h1[data-loco-translated="fr"]');
    await page.click('h1', { modifiers: ['Alt'] });
    expect(await page.locator('loco-editor').count()).toBe(0);
    expect(await page.locator('dialog').count()).toBe(0);

    await page.close();

    // The reviewer opens the page from the dashboard (a new tab) with a short-lived token.
    const reviewer = await signedInMember(harness, 'reviewer', ['fr']);
    const { token } = (await reviewer.client.post('/api/auth/edit-token', { url: `${site.url}/` })).body;
    const editing = await browser.newPage();
    await editing.goto(`${site.url}/?lang=fr#loco-edit=${token}`);
    await expect
      .poll(() => editing.locator('loco-editor [role="region"]').textContent())
      .toContain('Alt+click');
    expect(new URL(editing.url()).hash).toBe('');
    await editing.click('h1', { modifiers: ['Alt'] });
    const dialog = editing.locator('loco-editor dialog');
    expect(await dialog.locator('.source').textContent()).toBe('Fresh loaves daily');
    expect(await dialog.locator('textarea').inputValue()).toBe('Des pains frais chaque jour');
    await dialog.getByLabel('Translation').fill('Du pain frais tous les jours');
    await dialog.getByRole('button', { name: 'Save and mark reviewed' }).click();
    await expect.poll(() => editing.textContent('h1')).toBe('Du pain frais tous les jours');

    // What pages get changed, marked reviewed and signed by the reviewer.
    const delivered = (await harness.client.get('/api/translations?lang=fr')).body as {
      key: string;
      value: string;
    }[];
    expect(delivered).toContainEqual(
      expect.objectContaining({ key: 'Fresh loaves daily', value: 'Du pain frais tous les jours' }),
    );
    const row = (await harness.client.get('/api/translations/all?lang=fr&search=Fresh%20loaves')).body
      .rows[0];
    expect(row.state).toBe('reviewed');
    const history = await harness.client.get(`/api/translations/history?phrase_id=${row.id}&lang=fr`);
    expect(history.body.entries[0].actor).toBe(reviewer.email);

    // A text without a translation yet gets one the same way, picked with the toolbar's button.
    await editing.locator('loco-editor').getByRole('button', { name: 'Pick a text' }).click();
    await editing.click('p');
    await dialog.getByLabel('Translation').fill('Ouvert le dimanche');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => editing.textContent('p')).toBe('Ouvert le dimanche');

    // The toolbar chooses the language to edit, and follows the page's language however it changes.
    const bar = editing.locator('loco-editor [role="region"]');
    const picker = bar.getByLabel('Language');
    expect(await bar.textContent()).toContain('Editing the French (fr) translation');
    await picker.selectOption('de');
    await expect.poll(() => editing.textContent('p')).toBe('Sonntags geöffnet');
    expect(await bar.textContent()).toContain('Editing the German (de) translation');
    await editing.click('p', { modifiers: ['Alt'] });
    expect(await dialog.locator('#loco-edit-title').textContent()).toBe('Translate into German (de):');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await editing.evaluate(() => window.Loco.setLanguage('fr'));
    await expect.poll(() => bar.textContent()).toContain('Editing the French (fr) translation');
    expect(await picker.inputValue()).toBe('fr');
    await editing.close();
    await site.close();
  });

  it('keeps the language asked for in the address on the next page', async () => {
    const site = await serveSite({
      '/': HEAD_PAGE(script(harness), '<h1>Bread for the village</h1><a href="/next">Next</a>'),
      '/next': HEAD_PAGE(script(harness), '<h1>Bread for the village</h1>'),
    });
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${site.url}/?lang=fr`);
    await page.waitForSelector('h1[data-loco-translated="fr"]');
    await page.goto(`${site.url}/next`);
    await page.waitForSelector('h1[data-loco-translated="fr"]');
    expect(await page.textContent('h1')).toBe('Du pain pour le village');
    expect(await page.evaluate(() => localStorage.getItem('loco:lang'))).toBe('fr');
    await context.close();
    await site.close();
  });

  it('keeps the page hidden for a French browser until it is French, and shows an English one at once', async () => {
    const site = await serveSite({ '/': HEAD_PAGE(script(harness), '<h1>Bread for the village</h1>') });
    /** Whether the page was hidden when its document was parsed, and the heading once shown. */
    const firstSight = async (locale: string) => {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.addInitScript(() =>
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { hiddenAtParse: boolean }).hiddenAtParse =
            document.documentElement.hasAttribute('data-loco-loading');
        }),
      );
      await page.goto(site.url);
      await page.waitForFunction(() => !document.documentElement.hasAttribute('data-loco-loading'));
      const seen = {
        hidden: await page.evaluate(() => (window as unknown as { hiddenAtParse: boolean }).hiddenAtParse),
        heading: await page.textContent('h1'),
      };
      await context.close();
      return seen;
    };
    expect(await firstSight('fr-FR')).toEqual({ hidden: true, heading: 'Du pain pour le village' });
    expect(await firstSight('en-US')).toEqual({ hidden: false, heading: 'Bread for the village' });
    await site.close();
  });
});

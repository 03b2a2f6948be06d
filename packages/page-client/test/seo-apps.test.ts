import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { plainGet, seoSite, startHarness, type Harness } from '@app/translator/testing';
import { closeChromium, collectErrors, launchChromium } from './browser.ts';

const bundle = async (fixture: string, options: Parameters<typeof build>[0] = {}) =>
  (
    await build({
      entryPoints: [fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      ...options,
    })
  ).outputFiles![0]!.text;

const FRENCH = {
  'About us': 'À propos',
  'We bake bread.': 'Nous faisons du pain.',
  Home: 'Accueil',
  'Things to do': 'Choses à faire',
  'Add it': 'Ajouter',
  'Made with Lit': 'Fait avec Lit',
};

/**
 * A search page whose script writes the term (as text, safely) into a JSON block, a style, a noscript,
 * the title, a paragraph and a textarea: in the browser's DOM nothing of it is markup.
 */
const SEARCH_APP =
  '<!doctype html><html lang="en"><head><title>Search</title></head><body><p id="term"></p>' +
  '<textarea id="box"></textarea><noscript id="ns"></noscript><script>' +
  "const q = new URLSearchParams(location.search).get('q') || '';" +
  "const data = document.createElement('script'); data.type = 'application/json'; data.id = 'data';" +
  'data.textContent = JSON.stringify({ q }); document.head.append(data);' +
  "const style = document.createElement('style'); style.textContent = '/* ' + q + ' */'; document.head.append(style);" +
  "for (const id of ['ns', 'term', 'box']) document.getElementById(id).textContent = q; document.title = q;" +
  '</script></body></html>';
/** Closes every raw-text element the page holds, then runs script. */
const TERM =
  '</script></style></noscript></title></textarea><img src=x onerror=alert(1)><script>alert(1)</script>';

/**
 * SEO mode with `seoPrerender` for sites whose scripts render their text: a React app with client-side
 * routing and a Lit app, served by one origin behind the site's nginx.
 */
describe('SEO mode for apps rendered by their scripts (prerendered in Chromium)', () => {
  let harness: Harness;
  let browser: Browser;
  let served: Awaited<ReturnType<typeof seoSite>>;
  let site: { url: string };

  beforeAll(async () => {
    harness = await startHarness();
    const client = `<script src="${harness.url}/client.js" data-api-key="${harness.pageKey}"></script>`;
    const react = {
      body: `<!doctype html><html lang="en"><head><title>Bakery</title>${client}</head><body><div id="root"></div><script src="/app.js"></script></body></html>`,
    };
    const routes = {
      '/': react,
      '/about': react,
      '/app.js': {
        type: 'text/javascript',
        body: await bundle('react-app.tsx', {
          jsx: 'automatic',
          define: { 'process.env.NODE_ENV': '"production"' },
        }),
      },
      '/components': {
        body: `<!doctype html><html lang="en"><head><title>To do</title>${client}</head><body><todo-app><p>Made with Lit</p></todo-app><script src="/lit.js"></script></body></html>`,
      },
      '/lit.js': { type: 'text/javascript', body: await bundle('lit-app.ts') },
      '/favicon.ico': { type: 'image/x-icon', body: '' },
      '/search': { body: SEARCH_APP },
      '*': { status: 404, body: 'not found' },
    };
    served = await seoSite(harness, {
      routes,
      languages: ['fr'],
      translations: FRENCH,
      settings: { seoPrerender: true },
    });
    site = served.site;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await closeChromium(browser);
    await served?.stop();
    await harness?.stop();
  });

  it('serves a client-routed React page in French to a fetch without JavaScript', async () => {
    const answer = await plainGet(`${site.url}/fr/about`);
    expect(answer.status).toBe(200);
    const { document } = parseHTML(answer.body);
    expect(document.documentElement.getAttribute('lang')).toBe('fr');
    expect(document.querySelector('#root h2')?.textContent).toBe('À propos');
    expect(document.querySelector('#root p')?.textContent).toBe('Nous faisons du pain.');
    expect(document.querySelector('#home')?.getAttribute('href')).toBe('/fr/');
    expect(document.querySelector('#about')?.getAttribute('href')).toBe('/fr/about');
  });

  it('serves a Lit page with its shadow roots in the HTML, translated', async () => {
    const answer = await plainGet(`${site.url}/fr/components`);
    expect(answer.status).toBe(200);
    const { document } = parseHTML(answer.body);
    const root = document.querySelector('todo-app > template[shadowrootmode="open"]');
    expect(root?.querySelector('h1')?.textContent).toBe('Choses à faire');
    expect(root?.querySelector('#add')?.textContent).toBe('Ajouter');
    expect(document.querySelector('todo-app > p')?.textContent).toBe('Fait avec Lit');
  });

  it('hands a visitor the live app: the React router sees the original address, the text stays French', async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${site.url}/fr/about`);
    expect(new URL(page.url()).pathname).toBe('/about');
    await expect.poll(() => page.textContent('h2')).toBe('À propos');
    await page.click('a#home');
    await expect.poll(() => page.textContent('h2')).toBe('Counter page');
    expect(await page.textContent('a#home')).toBe('Accueil');
    // The translator's French is never taken for the page's own text.
    await page.waitForTimeout(800);
    const keys = (await harness.client.get('/api/translations/all?limit=500')).body.rows.map(
      (row: { key: string }) => row.key,
    );
    expect(keys).not.toContain('Nous faisons du pain.');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('hands a visitor the live web components, translated and working', async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${site.url}/fr/components`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Choses à faire');
    await page.locator('#new').fill('Buy bread');
    await page.locator('#add').click();
    await expect.poll(() => page.locator('li').textContent()).toBe('Buy bread');
    expect(await page.locator('#add').textContent()).toBe('Ajouter');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves what the app wrote as text as text: no raw-text element ends early once the page is HTML', async () => {
    const answer = await plainGet(`${site.url}/fr/search?q=${encodeURIComponent(TERM)}`);
    expect(answer.status).toBe(200);
    const { document } = parseHTML(answer.body);
    // The app's own script and its JSON block, nothing more. (A noscript's text is markup for browsers
    // that run no script: what the app wrote there stays inert, and inside it.)
    const outside = (selector: string) =>
      [...document.querySelectorAll(selector)].filter((element) => !element.closest('noscript'));
    expect(outside('script')).toHaveLength(2);
    expect(outside('img')).toHaveLength(0);
    expect(outside('[onerror]')).toHaveLength(0);
    expect(JSON.parse(document.querySelector('#data')!.textContent!)).toEqual({ q: TERM });
    expect(document.querySelector('title')?.textContent).toBe(TERM);
    expect(document.querySelector('#term')?.textContent).toBe(TERM);
  });
});

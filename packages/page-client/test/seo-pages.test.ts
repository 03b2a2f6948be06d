import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  HOSTILE_STRINGS,
  HOSTILE_TRANSLATIONS,
  plainGet,
  searchPage,
  seoSite,
  startHarness,
  storedPage,
  type Harness,
} from '@app/translator/testing';
import { closeChromium, collectErrors, launchChromium } from './browser.ts';

/** A site page that loads the page client, and adds a sentence of its own after a click. */
const page = (harness: Harness, title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>` +
  `<script src="${harness.url}/client.js" data-api-key="${harness.pageKey}" data-switcher></script></head>` +
  `<body><nav><a href="/about">About us</a></nav>${body}<button id="more">More</button><div id="later"></div>` +
  `<script>document.getElementById('more').onclick = () => { const p = document.createElement('p'); ` +
  `p.textContent = 'Baked this morning'; document.getElementById('later').append(p); };</script></body></html>`;

const FRENCH = {
  'About us': 'À propos',
  More: 'Plus',
  'Our story began in a small kitchen.': 'Notre histoire a commencé dans une petite cuisine.',
  'Baked this morning': 'Cuit ce matin',
};

describe('the page client on a site in SEO mode (Chromium)', () => {
  let harness: Harness;
  let browser: Browser;
  let served: Awaited<ReturnType<typeof seoSite>>;
  let site: { url: string };

  beforeAll(async () => {
    harness = await startHarness();
    served = await seoSite(harness, {
      routes: {
        '/about': { body: page(harness, 'About us', '<h1>Our story began in a small kitchen.</h1>') },
        '/favicon.ico': { type: 'image/x-icon', body: '' },
        '/stored': { body: storedPage },
        '/search': { body: searchPage },
        '*': { status: 404, body: 'not found' },
      },
      languages: ['fr', 'de'],
      translations: { ...FRENCH, ...HOSTILE_TRANSLATIONS },
    });
    // The switcher offers only languages with a translation delivered.
    await harness.client.post('/api/translations', {
      lang: 'de',
      translations: [{ key: 'About us', context: '', value: 'Über uns' }],
    });
    site = served.site;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await closeChromium(browser);
    await served?.stop();
    await harness?.stop();
  });

  it('does no second pass over a translated page, translates what the page adds, and registers nothing in French', async () => {
    const tab = await browser.newPage();
    const errors = collectErrors(tab);
    await tab.goto(`${site.url}/fr/about`);
    await expect
      .poll(() => tab.evaluate(() => document.querySelector('h1')?.textContent))
      .toBe('Notre histoire a commencé dans une petite cuisine.');
    await tab.locator('#more').click();
    await expect
      .poll(() => tab.evaluate(() => document.querySelector('#later p')?.textContent))
      .toBe('Cuit ce matin');
    expect(await tab.evaluate(() => document.documentElement.lang)).toBe('fr');
    // Give the client time to register (it batches for 400 ms): nothing French, nothing at /fr/.
    await tab.waitForTimeout(800);
    const rows = (await harness.client.get('/api/translations/all?limit=500')).body.rows as {
      key: string;
      urls: string[];
    }[];
    const keys = rows.map((row) => row.key);
    expect(keys).not.toContain('À propos');
    expect(keys).not.toContain('Plus');
    expect(rows.flatMap((row) => row.urls).some((url) => url.includes('/fr/'))).toBe(false);
    expect(errors).toEqual([]);
    await tab.close();
  });

  it('has a switcher whose languages are the page’s language addresses, and keeps the choice', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${site.url}/fr/about`);
    const switcher = tab.locator('loco-language-switcher');
    await switcher.getByRole('button').click();
    const links = switcher.getByRole('link');
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs).toEqual([`${site.url}/about`, `${site.url}/fr/about`, `${site.url}/de/about`]);
    await switcher.getByRole('link', { name: 'Deutsch' }).click();
    await tab.waitForURL(`${site.url}/de/about`);
    expect(await tab.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await tab.evaluate(() => localStorage.getItem('loco:lang'))).toBe('de');
    // The original page links to the language addresses too.
    await switcher.getByRole('button').click();
    await switcher.getByRole('link', { name: 'English' }).click();
    await tab.waitForURL(`${site.url}/about`);
    await tab.locator('loco-language-switcher').getByRole('button').click();
    const fromOriginal = await tab
      .locator('loco-language-switcher')
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    expect(fromOriginal).toContain(`${site.url}/fr/about`);
    expect(await tab.evaluate(() => localStorage.getItem('loco:lang'))).toBeNull();
    await tab.close();
  });

  it('runs none of a hostile translation or search term, stored or reflected, when Chromium opens the page', async () => {
    const tab = await browser.newPage();
    const dialogs: string[] = [];
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const paths = HOSTILE_STRINGS.flatMap((term, index) => [
      `/fr/stored?i=${index}`,
      `/fr/search?q=${encodeURIComponent(term)}`,
    ]);
    // Every served page at once, each in a frame of its own, parsed and run by the browser.
    const pages: string[] = [];
    for (const path of paths) pages.push((await plainGet(`${site.url}${path}`)).body);
    const quoted = (html: string) => html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    // The first frame is the control: a script that does run is seen.
    const control = `<iframe srcdoc="${quoted('<script>alert("control")</script>')}"></iframe>`;
    const framed = pages.map((html) => `<iframe srcdoc="${quoted(html)}"></iframe>`);
    await tab.setContent(control + framed.join(''), {
      waitUntil: 'load',
    });
    const found: string[] = [];
    const frames = tab.mainFrame().childFrames().slice(1);
    expect(frames).toHaveLength(paths.length);
    for (const [index, frame] of frames.entries()) {
      // What the browser's own parser made of the page: the origin's one script, no handler attributes.
      const { scripts, handlers } = await frame.evaluate(() => ({
        scripts: document.scripts.length,
        handlers: [...document.querySelectorAll('*')].flatMap((element) =>
          [...element.attributes]
            .filter((a) => /^on/i.test(a.name))
            .map((a) => `${element.localName} ${a.name}`),
        ),
      }));
      if (scripts !== 1 || handlers.length)
        found.push(`${paths[index]}: ${scripts} scripts ${handlers.join(' ')}`);
    }
    expect(found).toEqual([]);
    expect(dialogs).toEqual(['control']);
    await tab.close();
  }, 120_000);
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routesOf } from '@app/server-kit';
import { htmlHeaderProblems, walkGetRoutes } from '@app/server-kit/testing/html-headers';
import { registerApproved, signedInMember, seoSite, startHarness, type Harness } from './helpers.ts';
import { get } from './seo-site.ts';
import { introducedMarkup, readPage, scriptsIn } from './html-structure.ts';
import {
  ATTRIBUTE_CONTEXTS,
  HOSTILE_STRINGS,
  HOSTILE_TRANSLATIONS,
  hostileKey,
  searchPage,
  storedPage,
  TEXT_CONTEXTS,
  TRANSLATED_ATTRIBUTES,
  TRANSLATED_TEXT,
} from './hostile-pages.ts';

const layout = (title: string, description: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="description" content="${description}"><link rel="stylesheet" href="css/site.css">` +
  `${head}</head><body><nav><a href="/">Home</a> <a href="/about">About us</a> ` +
  `<a href="contact.html?from=nav#form">Contact</a> <a href="https://elsewhere.example/">Elsewhere</a> ` +
  `<a href="/menu.pdf">Menu</a> <a href="#top">Top</a></nav>${body}<img src="img/logo.png" alt="Our logo"></body></html>`;

/** A static bakery site with three pages, a moved page, a file and its own "not found" page. */
const SITE = {
  '/': { body: layout('Bakery', 'Fresh bread every morning', '<h1>Welcome to our bakery</h1>') },
  '/about': {
    body: layout(
      'About us',
      'Fresh bread every morning',
      '<h1>About us</h1><p>We bake with <b>organic flour</b> every day.</p><p>Our story began in a small kitchen.</p>',
      '<link rel="canonical" href="/about?utm_source=feed"><link rel="alternate" hreflang="en" href="/about">',
    ),
  },
  '/contact.html': { body: layout('Contact', 'Fresh bread every morning', '<h1>Write to us</h1>') },
  '/old-about': { status: 301, location: '/about' },
  '/menu.pdf': { type: 'application/pdf', body: '%PDF-1.4' },
  '/fragment': { body: '<p>Only a paragraph, <a href="/about">About us</a></p>' },
  '/odd-canonical': {
    body: layout(
      'Bakery',
      'Fresh bread every morning',
      '<h1>About us</h1>',
      '<link rel="canonical" href="http://[bad">',
    ),
  },
  '/stored': { body: storedPage },
  '/search': { body: searchPage },
  '*': { status: 404, body: layout('Bakery', 'Fresh bread every morning', '<h1>Page not found</h1>') },
};

const FRENCH: Record<string, string> = {
  'About us': 'À propos',
  Home: 'Accueil',
  'Fresh bread every morning': 'Du pain frais chaque matin',
  'We bake with {{text:0}} every day.': 'Nous cuisons avec {{text:0}} chaque jour.',
  'organic flour': 'de la farine bio',
  'Our logo': 'Notre logo',
  'Page not found': 'Page introuvable',
};

let h: Harness;
let served: Awaited<ReturnType<typeof seoSite>>;
let origin: { url: string };
let site: { url: string };
let projectId: number;

/** A language page as a search engine reads it. */
async function fetchPage(path: string) {
  const answer = await get(`${site.url}${path}`);
  const { document } = parseHTML(answer.body);
  const text = (selector: string) => document.querySelector(selector)?.textContent?.trim();
  const attr = (selector: string, name: string) => document.querySelector(selector)?.getAttribute(name);
  const links = (selector: string) =>
    [...document.querySelectorAll(selector)].map((link) => link.getAttribute('href'));
  return { ...answer, document, text, attr, links };
}

beforeAll(async () => {
  // The dashboard's build (a page of its own here), so every HTML answer of the translator is walked.
  const staticDir = mkdtempSync(join(tmpdir(), 'seo-dashboard-'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>Dashboard</title><script src="/app.js"></script>',
  );
  h = await startHarness({}, { staticDir });
  served = await seoSite(h, {
    routes: SITE,
    languages: ['fr', 'de', 'it'],
    translations: { ...FRENCH, ...HOSTILE_TRANSLATIONS },
  });
  // German has a translation delivered; Italian, configured, has none yet.
  await h.client.post('/api/translations', {
    lang: 'de',
    translations: [{ key: 'Home', context: '', value: 'Startseite' }],
  });
  ({ origin, site, projectId } = served);
}, 30_000);
afterAll(async () => {
  await served?.stop();
  await h?.stop();
});

describe('a language page fetched without JavaScript, through the site’s nginx', () => {
  it('is the page in French: text, title, description, attributes and <html lang>', async () => {
    const page = await fetchPage('/fr/about');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-language']).toBe('fr');
    expect(page.attr('html', 'lang')).toBe('fr');
    expect(page.attr('html', 'data-loco-rendered')).toBe('fr');
    expect(page.text('title')).toBe('À propos');
    expect(page.attr('meta[name=description]', 'content')).toBe('Du pain frais chaque matin');
    expect(page.text('h1')).toBe('À propos');
    expect(page.document.querySelector('p')?.innerHTML).toBe(
      'Nous cuisons avec <b>de la farine bio</b> chaque jour.',
    );
    expect(page.attr('img', 'alt')).toBe('Notre logo');
    // Not translated yet: the original stays.
    expect(page.text('p:nth-of-type(2)')).toBe('Our story began in a small kitchen.');
    // The page client's own marks stay out of what search engines read.
    expect(page.body).not.toContain('data-loco-translated');
  });

  it('names its canonical address and every language’s version', async () => {
    const page = await fetchPage('/fr/about');
    expect(page.links('link[rel=canonical]')).toEqual([`${site.url}/fr/about?utm_source=feed`]);
    const alternates = [...page.document.querySelectorAll('link[rel=alternate]')].map(
      (link) => `${link.getAttribute('hreflang')} ${link.getAttribute('href')}`,
    );
    expect(alternates.sort()).toEqual(
      [
        `x-default ${site.url}/about`,
        `en ${site.url}/about`,
        `fr ${site.url}/fr/about`,
        `de ${site.url}/de/about`,
      ].sort(),
    );
    const home = await fetchPage('/fr/');
    expect(home.links('link[rel=canonical]')).toEqual([`${site.url}/fr/`]);
  });

  it('keeps links within the site in the language, and leaves files, fragments and other sites alone', async () => {
    const page = await fetchPage('/fr/about');
    expect(page.links('nav a')).toEqual([
      '/fr/',
      '/fr/about',
      '/fr/contact.html?from=nav#form',
      'https://elsewhere.example/',
      '/menu.pdf',
      '#top',
    ]);
    // The page moved one folder down: its relative files still load from the original place.
    expect(page.links('link[rel=stylesheet]')).toEqual(['/css/site.css']);
    expect(page.attr('img', 'src')).toBe('/img/logo.png');
    // And the page is reachable at those links.
    expect((await fetchPage('/fr/contact.html?from=nav')).text('h1')).toBe('Write to us');
    expect((await fetchPage('/fr')).attr('html', 'lang')).toBe('fr');
  });

  it('answers a repeated fetch from its cache with the same ETag, and 304 to a conditional one', async () => {
    const first = await get(`${site.url}/fr/about`);
    const second = await get(`${site.url}/fr/about`);
    expect(second.headers.etag).toBe(first.headers.etag);
    const conditional = await get(`${site.url}/fr/about`, { 'if-none-match': String(first.headers.etag) });
    expect(conditional.status).toBe(304);
  });

  it('treats an address with tracking parameters as the page itself (one rendering, one cache entry)', async () => {
    const plain = await get(`${site.url}/fr/about?page=2`);
    const tracked = await get(`${site.url}/fr/about?utm_source=news&page=2&gclid=abc`);
    expect(tracked.status).toBe(200);
    expect(tracked.headers.etag).toBe(plain.headers.etag);
    const other = await get(`${site.url}/fr/about?page=3`);
    expect(other.status).toBe(200);
  });

  it('shows a changed translation on the next fetch', async () => {
    const before = await get(`${site.url}/fr/about`);
    const saved = await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'About us', context: '', value: 'Qui sommes-nous' }],
    });
    expect(saved.status).toBe(200);
    const after = await fetchPage('/fr/about');
    expect(after.text('h1')).toBe('Qui sommes-nous');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('registers the phrases it sees, at the original page’s address', async () => {
    await get(`${site.url}/de/about`);
    await vi.waitFor(async () => {
      const rows = (await h.client.get('/api/translations/all?search=small%20kitchen&search_field=key')).body
        .rows as { key: string; status: string; urls: string[] }[];
      expect(rows).toEqual([
        expect.objectContaining({ key: 'Our story began in a small kitchen.', status: 'pending' }),
      ]);
    });
    const detail = await h.client.get(
      `/api/analytics/url-detail?url=${encodeURIComponent(`${site.url}/about`)}`,
    );
    expect(detail.body.totalPhrases).toBeGreaterThan(5);
  });

  it('serves the site’s own “not found” page translated, with its status', async () => {
    const page = await fetchPage('/fr/no-such-page');
    expect(page.status).toBe(404);
    expect(page.text('h1')).toBe('Page introuvable');
  });

  it('takes a page that is only a fragment, and a canonical link that is not an address', async () => {
    const fragment = await fetchPage('/fr/fragment');
    expect(fragment.status).toBe(200);
    expect(fragment.attr('html', 'lang')).toBe('fr');
    expect(fragment.links('p a')).toEqual(['/fr/about']);
    const odd = await fetchPage('/fr/odd-canonical');
    expect(odd.status).toBe(200);
    expect(odd.links('link[rel=canonical]')).toEqual([`${site.url}/fr/odd-canonical`]);
  });

  it('follows a moved page into the language, and sends files to the original', async () => {
    const moved = await get(`${site.url}/fr/old-about`);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`${site.url}/fr/about`);
    const file = await get(`${site.url}/fr/menu.pdf`);
    expect(file.status).toBe(302);
    expect(file.headers.location).toBe(`${site.url}/menu.pdf`);
  });
});

describe('sitemaps', () => {
  it('lists every page in every language, each with its alternates', async () => {
    for (const path of ['/', '/about', '/contact.html']) await get(`${site.url}/fr${path}`);
    await vi.waitFor(async () => {
      const { status, headers, body } = await get(`${site.url}/sitemap-languages.xml`);
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('application/xml; charset=utf-8');
      for (const path of ['/about', '/contact.html']) {
        for (const prefix of ['', '/fr', '/de'])
          expect(body).toContain(`<loc>${site.url}${prefix}${path}</loc>`);
      }
      expect(body).toContain(`<xhtml:link rel="alternate" hreflang="de" href="${site.url}/de/about"/>`);
    });
  });

  it('leaves out a language with nothing delivered yet: its pages lead to the original, no sitemap or alternate names it', async () => {
    const page = await get(`${site.url}/it/about`);
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe(`${site.url}/about`);
    const sitemap = await get(`${site.url}/it/sitemap.xml`);
    expect(sitemap.status).toBe(404);
    expect(JSON.parse(sitemap.body).error.message).toContain('not translated into "it"');
    const all = await get(`${site.url}/sitemap-languages.xml`);
    expect(all.body).toContain(`${site.url}/de/about`);
    expect(all.body).not.toContain('/it/');
    expect(all.body).not.toContain('hreflang="it"');
    const french = await fetchPage('/fr/about');
    expect(french.body).not.toContain('hreflang="it"');
  });

  it('lists one language’s pages at /<lang>/sitemap.xml', async () => {
    const { status, body } = await get(`${site.url}/fr/sitemap.xml`);
    expect(status).toBe(200);
    expect(body).toContain(`<loc>${site.url}/fr/about</loc>`);
    expect(body).not.toContain(`<loc>${site.url}/de/about</loc>`);
    expect(body).not.toContain(`<loc>${site.url}/about</loc>`);
  });
});

describe('what SEO mode refuses', () => {
  const direct = (path: string, host = new URL(site.url).host) =>
    get(`${h.url}/seo/${projectId}${path}`, { host });

  it('serves pages only for the site’s host, never on the translator’s own (cached or not)', async () => {
    await get(`${site.url}/fr/about`);
    // Another host, and the translator's own address: the same host name, another port.
    for (const host of ['translator.example', new URL(h.url).host]) {
      for (const path of ['/fr/about', '/fr/contact.html', '/sitemap.xml']) {
        const answer = await direct(path, host);
        expect(answer.status).toBe(421);
        expect(JSON.parse(answer.body).error.code).toBe('wrong_host');
      }
    }
  });

  it('never leaves the origin for a path that reads as another host', async () => {
    const answer = await direct('/fr//elsewhere.example/about');
    expect(answer.status).toBe(404);
    const { document } = parseHTML(answer.body);
    // The origin's own "not found" page (in French): the request stayed on the origin.
    expect(document.querySelector('h1')?.textContent).toBe('Page introuvable');
  });

  it('answers 404 for a language the project does not have', async () => {
    const answer = await direct('/es/about');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error.code).toBe('not_found');
  });

  it('answers 404 seo_disabled for a project without SEO mode and for one that does not exist', async () => {
    const other = await h.newProject('Plain');
    await other.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    for (const id of [other.id, 999_999]) {
      const answer = await get(`${h.url}/seo/${id}/fr/`, { host: new URL(site.url).host });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body).error.code).toBe('seo_disabled');
    }
  });

  it('refuses to save an origin the outbound policy would not fetch, naming the allowlist (422)', async () => {
    const other = await h.newProject('Loopback site');
    for (const seoOrigin of ['http://127.0.0.2:8080', 'http://192.168.0.1:8080']) {
      const answer = await other.client.patch('/api/project/settings', {
        settings: { languages: ['fr'], seoOrigin },
      });
      expect(answer.status, seoOrigin).toBe(422);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(Object.keys(answer.body.error.fields)).toEqual(['seoOrigin']);
      const message = answer.body.error.fields.seoOrigin as string;
      expect(message).toContain(`"${seoOrigin}" cannot be fetched`);
      expect(message).toContain(`TRANSLATOR_SEO_ORIGIN_ALLOWLIST (such as ${new URL(seoOrigin).host})`);
    }
    expect((await other.client.get('/api/project')).body.settings.seoOrigin).toBe('');
    // An allowlisted host (the harness allows 127.0.0.1) is saved.
    const allowed = await other.client.patch('/api/project/settings', {
      settings: { seoOrigin: 'http://127.0.0.1:8080' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.settings.seoOrigin).toBe('http://127.0.0.1:8080');
  });

  it('never fetches from an internal address that is not allowlisted, stored before saving checked it (502, no detail)', async () => {
    const other = await h.newProject('Internal');
    await h.translator.ctx.db
      .updateTable('projects')
      .set({ settings: JSON.stringify({ languages: ['fr'], seoOrigin: 'http://192.168.0.1:8080' }) })
      .where('id', '=', other.id)
      .execute();
    // French has a page only once something is delivered in it.
    await registerApproved(other.client, ['Hello']);
    await other.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Hello', value: 'Bonjour' }],
    });
    const answer = await get(`${h.url}/seo/${other.id}/fr/`, { host: '192.168.0.1:8080' });
    expect(answer.status).toBe(502);
    const { error } = JSON.parse(answer.body);
    expect(error.code).toBe('origin_unavailable');
    expect(JSON.stringify(error)).not.toContain('192.168');
  });

  it('refuses settings that are not an origin, field by field', async () => {
    const answer = await h.client.patch('/api/project/settings', {
      settings: { seoOrigin: 'ftp://files.example', seoPublicUrl: 'https://shop.example/en/' },
    });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.error.fields).sort()).toEqual(['seoOrigin', 'seoPublicUrl']);
    const kept = await h.client.get('/api/project');
    expect(kept.body.settings.seoOrigin).toBe(origin.url);
  });

  it('tells the page client the site has language addresses', async () => {
    const config = await h.client.get('/api/project/crawler-config');
    expect(config.body.languagePaths).toBe(true);
  });
});

/** Issue 32, finding 2: every text the renderer writes is escaped for its context. */
describe('hostile text in a language page', () => {
  const problemsOf = (origin: string, served: string) => [
    ...scriptsIn(served).filter((found) => !found.startsWith('<script>window.term')),
    ...introducedMarkup(origin, served),
  ];

  it('writes hostile translations back as the text they are, in every element and attribute (stored)', async () => {
    const problems: string[] = [];
    for (const [index, value] of HOSTILE_STRINGS.entries()) {
      const answer = await get(`${site.url}/fr/stored?i=${index}`);
      const origin = storedPage(new URL(`http://origin/stored?i=${index}`));
      const page = readPage(answer.body);
      for (const problem of problemsOf(origin, answer.body)) problems.push(`${index}: ${problem}`);
      for (const selector of TRANSLATED_TEXT)
        if (page.text(selector)?.trim() !== value.trim())
          problems.push(`${index}: ${selector} reads ${page.text(selector)}`);
      for (const [selector, name] of TRANSLATED_ATTRIBUTES)
        if (page.attr(selector, name)?.trim() !== value.trim())
          problems.push(`${index}: ${selector} ${name} reads ${page.attr(selector, name)}`);
      // What the page client does not translate stays the phrase.
      expect(page.text('textarea')).toBe(hostileKey(index));
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('writes a search term the origin escaped back escaped, in every context (reflected)', async () => {
    const problems: string[] = [];
    for (const [index, term] of HOSTILE_STRINGS.entries()) {
      const path = `/search?q=${encodeURIComponent(term)}`;
      const answer = await get(`${site.url}/fr${path}`);
      expect(answer.status, path).toBe(200);
      const origin = searchPage(new URL(`http://origin${path}`));
      const [before, after] = [readPage(origin), readPage(answer.body)];
      for (const problem of problemsOf(origin, answer.body)) problems.push(`${index}: ${problem}`);
      for (const selector of TEXT_CONTEXTS)
        if (after.text(selector) !== before.text(selector))
          problems.push(`${index}: ${selector} reads ${after.text(selector)}`);
      for (const [selector, name] of ATTRIBUTE_CONTEXTS)
        if (after.attr(selector, name) !== before.attr(selector, name))
          problems.push(`${index}: ${selector} ${name} reads ${after.attr(selector, name)}`);
      // The origin's script and style, which were safe, reach the page byte for byte.
      for (const element of ['script', 'style'])
        if (after.text(element) !== before.text(element)) problems.push(`${index}: ${element} changed`);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('answers a hostile page from its cache as it rendered it', async () => {
    const path = `/fr/search?q=${encodeURIComponent(HOSTILE_STRINGS[0]!)}`;
    const first = await get(`${site.url}${path}`);
    const cached = await get(`${site.url}${path}`);
    expect(cached.headers.etag).toBe(first.headers.etag);
    expect(cached.body).toBe(first.body);
    expect(scriptsIn(cached.body).filter((found) => !found.startsWith('<script>window.term'))).toEqual([]);
  });

  it('escapes page addresses in the sitemap (it parses as XML)', async () => {
    await get(`${site.url}/fr/a&b'c"d<e>f`);
    await vi.waitFor(async () => {
      const { body } = await get(`${site.url}/fr/sitemap.xml`);
      expect(body).toContain(`/fr/a&amp;b&apos;c`);
      const lint = spawnSync('xmllint', ['--noout', '-'], { input: body, encoding: 'utf8' });
      expect(lint.stderr).toBe('');
      expect(lint.status).toBe(0);
    });
  });
});

/** Issue 32, finding 1: the site's pages never run on the translator's own origin. */
describe('SEO pages and the translator’s own address', () => {
  const ownAddresses = () => {
    const { port } = new URL(h.url);
    return [h.url, `http://localhost:${port}`, `http://[::1]:${port}`];
  };

  it('refuses seoOrigin or seoPublicUrl on the translator’s own address (422, per field)', async () => {
    // A key holder of another tenant's project, and a manager signed in to the dashboard.
    const other = await h.newProject('Tenant');
    const manager = await signedInMember(h, 'manager', [], { client: other.client, id: other.id });
    for (const caller of [other.client, manager.client]) {
      for (const address of ownAddresses()) {
        for (const field of ['seoPublicUrl', 'seoOrigin']) {
          const answer = await caller.patch('/api/project/settings', {
            settings: { languages: ['fr'], seoOrigin: origin.url, [field]: address },
          });
          expect(answer.status, `${field} ${address}`).toBe(422);
          expect(answer.body.error.code).toBe('validation_failed');
          expect(Object.keys(answer.body.error.fields)).toEqual([field]);
        }
      }
    }
    expect((await other.client.get('/api/project')).body.settings.seoPublicUrl).toBe('');
  });

  it('never serves a page on the translator’s own host, even with such an address stored, to a signed-in owner too', async () => {
    const other = await h.newProject('Stored before the fix');
    await h.translator.ctx.db
      .updateTable('projects')
      .set({
        settings: JSON.stringify({ languages: ['fr'], seoOrigin: origin.url, seoPublicUrl: h.url }),
      })
      .where('id', '=', other.id)
      .execute();
    const owner = await signedInMember(h, 'owner');
    const cookie = `translator_session=${owner.client.cookie('translator_session')}`;
    for (const headers of [{}, { cookie }] as Record<string, string>[]) {
      for (const path of ['/fr/about', '/fr/about', '/sitemap.xml']) {
        const answer = await get(`${h.url}/seo/${other.id}${path}`, headers);
        expect(answer.status, path).toBe(421);
        expect(JSON.parse(answer.body).error.code).toBe('wrong_host');
        expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      }
    }
  });

  it('knows its public URL as its own, on any port', async () => {
    const own = await startHarness({
      accounts: { publicUrl: 'https://translator.test', oidc: undefined, inviteDays: 7 },
    });
    try {
      for (const address of [
        'https://translator.test',
        'http://translator.test:8443',
        'https://TRANSLATOR.test',
      ]) {
        const answer = await own.client.patch('/api/project/settings', {
          settings: { languages: ['fr'], seoOrigin: origin.url, seoPublicUrl: address },
        });
        expect(answer.status, address).toBe(422);
        expect(Object.keys(answer.body.error.fields)).toEqual(['seoPublicUrl']);
      }
      const id = own.translator.defaultProject.project.id;
      await own.translator.ctx.db
        .updateTable('projects')
        .set({
          settings: JSON.stringify({
            languages: ['fr'],
            seoOrigin: origin.url,
            seoPublicUrl: 'https://translator.test',
          }),
        })
        .where('id', '=', id)
        .execute();
      const answer = await get(`${own.url}/seo/${id}/fr/about`, { host: 'translator.test' });
      expect(answer.status).toBe(421);
    } finally {
      await own.stop();
    }
  });
});

/** Issue 32: the security headers of every HTML answer. */
describe('headers', () => {
  it('sends a language page with nosniff, a Referrer-Policy and frame-ancestors, leaving the site’s scripts alone', async () => {
    const page = await get(`${site.url}/fr/about`);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    const cached = await get(`${site.url}/fr/about`);
    expect(cached.headers['content-security-policy']).toBe("frame-ancestors 'self'");
  });

  it('walks every GET route: each answer, and each HTML page (dashboard, API docs, SEO pages), has its headers', async () => {
    const siteHost = new URL(site.url).host;
    const answers = await walkGetRoutes(h.url, routesOf(h.translator.app), {
      fill: (route) =>
        route.startsWith('/seo/')
          ? route.replace(':projectId', String(projectId)).replace(':lang', 'fr').replace('*', 'about')
          : undefined,
      headers: (path): Record<string, string> => (path.startsWith('/seo/') ? { host: siteHost } : {}),
    });
    const isPage = (answer: (typeof answers)[number]) => answer.type.startsWith('text/html');
    const problems = answers.flatMap((answer) =>
      htmlHeaderProblems(answer, answer.path.startsWith('/seo/') && isPage(answer)),
    );
    expect(problems).toEqual([]);
    expect(answers.filter(isPage).map((answer) => answer.route)).toEqual(
      expect.arrayContaining(['/*', '/api/docs', '/seo/:projectId/:lang', '/seo/:projectId/:lang/*']),
    );
    expect(answers.length).toBeGreaterThan(50);
  });

  it('answers the API with a CSP that runs nothing and frames nothing', async () => {
    for (const path of ['/api', '/api/project', '/api/no-such-route', '/api/openapi.json']) {
      const answer = await h.client.get(path);
      expect(answer.headers.get('content-security-policy'), path).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });
});

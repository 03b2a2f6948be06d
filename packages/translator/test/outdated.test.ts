// Outdated, not lost: a page that shows a changed text where an old one was gets the old text's
// translations carried over, marked outdated with the text they were made for, until a person saves or
// reviews them; whether pages get them meanwhile is a project setting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.stop());

beforeEach(async () => {
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr', 'de'], deliverOutdated: false },
  });
  await h.client.post('/api/project/reset-database');
});

interface Row {
  id: number;
  key: string;
  context: string;
  status: string;
  value: string | null;
  translationId: number | null;
  state: string | null;
  outdatedFrom: string | null;
}

const report = (url: string, keys: (string | { key: string; context: string })[]) =>
  h.client.post('/api/textnodes', {
    url,
    keys: keys.map((key) => (typeof key === 'string' ? { key } : key)),
  });

const rows = async (query = '') =>
  (await h.client.get(`/api/translations/all?lang=fr&limit=100${query}`)).body.rows as Row[];
const rowOf = async (key: string, context = '') =>
  (await rows()).find((row) => row.key === key && row.context === context);

/** A page with `keys`, approved, and the French (and German) translations a person made of them. */
async function translatedPage(url: string, fr: Record<string, string>, extra: string[] = []) {
  await report(url, [...Object.keys(fr), ...extra]);
  const ids = (await rows()).map((row) => row.id);
  await h.client.patch('/api/textnodes/status', { ids, status: 'approved' });
  await h.client.post('/api/translations', {
    lang: 'fr',
    translations: Object.entries(fr).map(([key, value]) => ({ key, value })),
  });
  await h.client.post('/api/translations', {
    lang: 'de',
    translations: Object.keys(fr).map((key) => ({ key, value: `DE ${key}` })),
  });
}

const delivered = async (lang = 'fr') =>
  ((await h.client.get(`/api/translations?lang=${lang}`)).body as { key: string; value: string }[]).map(
    (row) => `${row.key}=${row.value}`,
  );

describe('outdated translations', () => {
  it('carries the translations of a changed text over, marked outdated, keeping the old phrase', async () => {
    await translatedPage('https://shop.test/', { 'Welcome to our shop': 'Bienvenue dans notre boutique' }, [
      'Opening hours',
    ]);
    const reported = await report('https://shop.test/', ['Welcome to our store', 'Opening hours']);
    expect(reported.body).toMatchObject({ ok: true, registered: 1 });

    // Approved like the text it replaced, with its translations in every language.
    expect(await rowOf('Welcome to our store')).toMatchObject({
      status: 'approved',
      value: 'Bienvenue dans notre boutique',
      state: 'human',
      outdatedFrom: 'Welcome to our shop',
    });
    const german = (await h.client.get('/api/translations/all?lang=de&search=store')).body.rows[0];
    expect(german).toMatchObject({ value: 'DE Welcome to our shop', outdatedFrom: 'Welcome to our shop' });
    // The old phrase and its translation are still there.
    expect(await rowOf('Welcome to our shop')).toMatchObject({
      value: 'Bienvenue dans notre boutique',
      outdatedFrom: null,
    });
    const newRow = (await rowOf('Welcome to our store'))!;
    const history = await h.client.get(`/api/translations/history?phrase_id=${newRow.id}&lang=fr`);
    expect(history.body.entries).toMatchObject([
      { source: 'carried', oldValue: null, newValue: 'Bienvenue dans notre boutique', newState: 'human' },
    ]);

    expect((await rows('&outdated=yes')).map((row) => row.key)).toEqual(['Welcome to our store']);
    expect((await rows('&outdated=no')).map((row) => row.key)).not.toContain('Welcome to our store');
    const noLang = await h.client.get('/api/translations/all?outdated=yes');
    expect(noLang.status).toBe(400);
    expect(noLang.body.error.fields).toEqual({ outdated: 'needs lang' });
  });

  it('delivers outdated translations only when the project says so', async () => {
    await translatedPage('https://shop.test/', {
      'Free delivery on all orders': 'Livraison offerte sur toutes les commandes',
    });
    await report('https://shop.test/', ['Free delivery on every order']);
    expect(await delivered()).toEqual([
      'Free delivery on all orders=Livraison offerte sur toutes les commandes',
    ]);

    await h.client.patch('/api/project/settings', { settings: { deliverOutdated: true } });
    expect(await delivered()).toEqual([
      'Free delivery on all orders=Livraison offerte sur toutes les commandes',
      'Free delivery on every order=Livraison offerte sur toutes les commandes',
    ]);
  });

  it('a save or a review says the translation fits the new text: it is no longer outdated', async () => {
    await translatedPage('https://shop.test/', {
      'Sign in to continue': 'Connectez-vous pour continuer',
      'Log out now': 'Déconnexion',
    });
    await report('https://shop.test/', ['Please sign in to continue', 'Log out right now']);
    expect((await rows('&outdated=yes')).map((row) => row.key).sort()).toEqual([
      'Log out right now',
      'Please sign in to continue',
    ]);

    const signIn = (await rowOf('Please sign in to continue'))!;
    // Saved unchanged: still right for the new text.
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ id: signIn.id, value: 'Connectez-vous pour continuer' }],
    });
    expect(await rowOf('Please sign in to continue')).toMatchObject({ outdatedFrom: null, state: 'human' });

    const logOut = (await rowOf('Log out right now'))!;
    const reviewed = await h.client.patch('/api/translations/state', {
      ids: [logOut.translationId],
      state: 'reviewed',
    });
    expect(reviewed.body).toEqual({ ok: true, updated: 1 });
    expect(await rowOf('Log out right now')).toMatchObject({ outdatedFrom: null, state: 'reviewed' });
    expect(await delivered()).toEqual(
      expect.arrayContaining([
        'Please sign in to continue=Connectez-vous pour continuer',
        'Log out right now=Déconnexion',
      ]),
    );
  });

  it('carries nothing to a text of another page, context or slots, to a different text, or while the old text is still reported', async () => {
    await translatedPage('https://shop.test/', { 'Add to cart': 'Ajouter au panier' });
    await report('https://shop.test/other', ['Add to carts']);
    await report('https://shop.test/', [{ key: 'Add to carts', context: 'footer' }]);
    await report('https://shop.test/', ['Add {{text:0}} to cart']);
    await report('https://shop.test/', ['Remove from cart']);
    await report('https://shop.test/', ['Add to cart', 'Add to basket']);
    expect((await rows('&translated=yes')).map((row) => row.key)).toEqual(['Add to cart']);
    expect(await rows('&outdated=yes')).toEqual([]);
  });

  it('gives each old text to its closest new one, once', async () => {
    await translatedPage('https://shop.test/', { 'Contact our team': 'Contactez notre équipe' });
    await report('https://shop.test/', ['Contact our teams', 'Contact our sales team']);
    const carried = await rows('&outdated=yes');
    expect(carried.map((row) => row.key)).toEqual(['Contact our teams']);
  });
});

// Translation memory over the real server: what people translate is remembered (machine output is
// not), offered for the same or similar texts with a score, shared only between projects that opt in,
// and used to fill an AI job's items before the machine is asked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultBehaviour, startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { registerApproved, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  h = await startHarness({ ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 1, backoffMs: 5 } });
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

type Client = Harness['client'];

beforeEach(async () => {
  fake.set({ ...defaultBehaviour(), apiKey: 'sk-test' });
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr', 'de'], translationProviderApiKey: 'sk-test', sharedMemory: false },
  });
  await h.client.post('/api/project/reset-database');
});

const save = (client: Client, lang: string, pairs: Record<string, string>) =>
  client.post('/api/translations', {
    lang,
    translations: Object.entries(pairs).map(([key, value]) => ({ key, value })),
  });

const lookup = async (client: Client, lang: string, text: string) => {
  const res = await client.get(`/api/translations/memory?lang=${lang}&text=${encodeURIComponent(text)}`);
  expect(res.status).toBe(200);
  return res.body.matches as Record<string, unknown>[];
};

async function runJob(client: Client, keyIds: number[], lang: string) {
  const started = await client.post('/api/ai-jobs', { key_ids: keyIds, lang });
  expect(started.status).toBe(202);
  for (let tries = 0; tries < 200; tries++) {
    const job = (await client.get(`/api/ai-jobs/${started.body.jobId}`)).body;
    if (job.status !== 'pending' && job.status !== 'running') return job as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the job did not finish');
}

/** The texts the fake machine translation was asked for since `from`. */
const askedFor = (from: number) =>
  fake.requests.slice(from).flatMap((request) => {
    const user = request.messages.findLast((message) => message.role === 'user')!.content;
    return (JSON.parse(user) as { items: { text: string }[] }).items.map((item) => item.text);
  });

describe('translation memory', () => {
  it('offers what a person translated for the same text (100) and for similar ones, best first', async () => {
    await registerApproved(h.client, ['Add to cart', 'Add {{number:0}} items to your cart', 'Opening hours']);
    await save(h.client, 'fr', {
      'Add to cart': 'Ajouter au panier',
      'Add {{number:0}} items to your cart': 'Ajouter {{number:0}} articles à votre panier',
    });

    expect(await lookup(h.client, 'fr', 'Add to cart')).toEqual([
      {
        source: 'Add to cart',
        value: 'Ajouter au panier',
        state: 'human',
        score: 100,
        shared: false,
        updatedAt: expect.any(String),
      },
    ]);
    // One character off: 1 − 1/12 of "Add to carts".
    expect(await lookup(h.client, 'fr', 'Add to carts')).toMatchObject([
      { source: 'Add to cart', value: 'Ajouter au panier', score: 91 },
    ]);
    const similar = await lookup(h.client, 'fr', 'Add {{number:0}} items to the cart');
    expect(similar.map((match) => match.source)).toEqual(['Add {{number:0}} items to your cart']);
    expect(similar[0]!.score).toBeGreaterThan(80);
    expect(similar[0]!.score).toBeLessThan(100);
    // Nothing close, another language, or a text nobody translated: no matches.
    expect(await lookup(h.client, 'fr', 'Opening hours')).toEqual([]);
    expect(await lookup(h.client, 'fr', 'Delivery times')).toEqual([]);
    expect(await lookup(h.client, 'de', 'Add to cart')).toEqual([]);
  });

  it('does not remember machine translations, and marks what was reviewed', async () => {
    const ids = await registerApproved(h.client, ['Checkout', 'Sign in']);
    await runJob(h.client, [ids.Checkout!], 'fr');
    expect((await h.client.get('/api/translations/all?lang=fr&search=Checkout')).body.rows[0]).toMatchObject({
      state: 'machine',
    });
    expect(await lookup(h.client, 'fr', 'Checkout')).toEqual([]);

    await save(h.client, 'fr', { 'Sign in': 'Se connecter' });
    const row = (await h.client.get('/api/translations/all?lang=fr&search=Sign')).body.rows[0];
    await h.client.patch('/api/translations/state', { ids: [row.translationId], state: 'reviewed' });
    expect(await lookup(h.client, 'fr', 'Sign in')).toMatchObject([
      { value: 'Se connecter', state: 'reviewed' },
    ]);
    // A later edit replaces the remembered value (one entry per text and language).
    await save(h.client, 'fr', { 'Sign in': 'Connexion' });
    expect(await lookup(h.client, 'fr', 'Sign in')).toMatchObject([{ value: 'Connexion', state: 'human' }]);
  });

  it('outlives the phrase it came from, and is cleared with the project data', async () => {
    const ids = await registerApproved(h.client, ['Free delivery']);
    await save(h.client, 'fr', { 'Free delivery': 'Livraison gratuite' });
    expect((await h.client.delete(`/api/textnodes/${ids['Free delivery']}`)).status).toBe(200);
    expect(await lookup(h.client, 'fr', 'Free delivery')).toMatchObject([{ value: 'Livraison gratuite' }]);
    await h.client.post('/api/project/reset-database');
    expect(await lookup(h.client, 'fr', 'Free delivery')).toEqual([]);
  });

  it("is the project's own unless both projects share their memory", async () => {
    await registerApproved(h.client, ['Your basket']);
    await save(h.client, 'fr', { 'Your basket': 'Votre panier' });
    const other = await h.newProject('Shop two');
    await other.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    expect(await lookup(other.client, 'fr', 'Your basket')).toEqual([]);

    // Sharing is mutual: the other project alone opting in sees nothing of a project that does not share.
    await other.client.patch('/api/project/settings', { settings: { sharedMemory: true } });
    expect(await lookup(other.client, 'fr', 'Your basket')).toEqual([]);
    await h.client.patch('/api/project/settings', { settings: { sharedMemory: true } });
    expect(await lookup(other.client, 'fr', 'Your basket')).toMatchObject([
      { value: 'Votre panier', score: 100, shared: true },
    ]);
    expect(await lookup(h.client, 'fr', 'Your basket')).toMatchObject([{ shared: false }]);

    // An AI job takes the project's own memory before the shared one.
    const theirs = await registerApproved(other.client, ['Your basket']);
    await other.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Your basket', value: 'Ton panier' }],
    });
    await other.client.delete(
      `/api/translations/${(await other.client.get('/api/translations/all?lang=fr')).body.rows[0].translationId}`,
    );
    await other.client.patch('/api/project/settings', { settings: { translationProviderApiKey: 'sk-test' } });
    const job = await runJob(other.client, [theirs['Your basket']!], 'fr');
    expect(job).toMatchObject({ status: 'completed', memory: { filled: 1 } });
    expect((await other.client.get('/api/translations/all?lang=fr')).body.rows[0]).toMatchObject({
      value: 'Ton panier',
    });
    await h.translator.services.projects.resetData(other.id);
  });

  it('fills an AI job from memory first: only the rest is sent, and the job says what that saved', async () => {
    const ids = await registerApproved(h.client, ['Add to cart', 'Opening hours', 'Contact us']);
    await save(h.client, 'fr', { 'Add to cart': 'Ajouter au panier', 'Contact us': 'Nous contacter' });
    // The texts come back as new phrases (their translations gone): the memory still knows them.
    await h.client.post('/api/textnodes/bulk-delete', { ids: Object.values(ids) });
    const again = await registerApproved(h.client, ['Add to cart', 'Opening hours', 'Contact us']);
    const from = fake.requests.length;

    const job = await runJob(h.client, Object.values(again), 'fr');
    expect(job).toMatchObject({
      status: 'completed',
      total: 3,
      completed: 3,
      failed: 0,
      memory: { filled: 2, savedCharacters: 'Add to cart'.length + 'Contact us'.length },
    });
    expect(askedFor(from)).toEqual(['Opening hours']);
    const rows = (await h.client.get('/api/translations/all?lang=fr&limit=10')).body.rows as {
      id: number;
      key: string;
      value: string;
      state: string;
    }[];
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    // Filled as machine translations (a person has not seen them here), recorded as the memory's.
    expect(byKey['Add to cart']).toMatchObject({ value: 'Ajouter au panier', state: 'machine' });
    expect(byKey['Contact us']).toMatchObject({ value: 'Nous contacter', state: 'machine' });
    const history = await h.client.get(`/api/translations/history?phrase_id=${again['Add to cart']}&lang=fr`);
    expect(history.body.entries).toMatchObject([
      { source: 'memory', actor: `ai-job:${job.id as string}`, newValue: 'Ajouter au panier' },
    ]);
    expect((await h.client.get('/api/ai-jobs/log')).body[0]).toMatchObject({ memory: { filled: 2 } });
  });

  it('leaves a phrase a person translated to the machine, whose text becomes a suggestion', async () => {
    const ids = await registerApproved(h.client, ['Log out']);
    await save(h.client, 'fr', { 'Log out': 'Déconnexion' });
    const from = fake.requests.length;

    const job = await runJob(h.client, [ids['Log out']!], 'fr');
    expect(job).toMatchObject({ status: 'completed', memory: { filled: 0, savedCharacters: 0 } });
    expect(askedFor(from)).toEqual(['Log out']);
    const row = (await h.client.get('/api/translations/all?lang=fr')).body.rows[0];
    expect(row).toMatchObject({ value: 'Déconnexion', state: 'human', suggestion: '[fr] Log out' });
  });

  it('refuses a lookup without a text or language, or with a text too long', async () => {
    expect((await h.client.get('/api/translations/memory?lang=fr')).status).toBe(400);
    expect((await h.client.get('/api/translations/memory?text=Hello')).status).toBe(400);
    const long = await h.client.get(`/api/translations/memory?lang=fr&text=${'a'.repeat(5001)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.fields).toHaveProperty('text');
  });
});

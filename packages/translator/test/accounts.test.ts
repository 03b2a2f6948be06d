import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { registerApproved, signedInMember, startHarness, type Harness } from './helpers.ts';

// Dashboard accounts and per-project roles, over the real server: invitations, password sign-in, the
// session's CSRF and project headers, what each role may do, and who the history names.

let h: Harness;
let ids: Record<string, number>;

beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
  ids = await registerApproved(h.client, ['Hello', 'Goodbye']);
});
afterAll(async () => h?.stop());

const save = (client: TestClient, lang: string, key: string, value: string) =>
  client.post('/api/translations', { lang, translations: [{ key, value }] });
const translationId = async (key: string, lang: string) =>
  (
    (await h.client.get(`/api/translations/all?lang=${lang}&limit=100`)).body.rows as {
      key: string;
      translationId: number | null;
    }[]
  ).find((row) => row.key === key)!.translationId!;

describe('invitations and sign-in', () => {
  it('an owner’s invitation becomes an account that signs in with its password', async () => {
    const invite = await h.client.post('/api/members/invites', {
      email: 'Ana@Example.test',
      role: 'translator',
      languages: ['fr'],
    });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({
      email: 'ana@example.test',
      role: 'translator',
      languages: ['fr'],
      url: null,
    });
    expect(invite.body.invitedBy).toMatch(/^key:/);
    const token = (invite.body.path as string).replace('/invite/', '');

    const preview = await h.anonymous.get(`/api/invites/${token}`);
    expect(preview.body).toEqual({
      projectName: 'Default project',
      email: 'ana@example.test',
      role: 'translator',
      languages: ['fr'],
      accountExists: false,
    });

    const browser = new TestClient(h.url);
    const missing = await browser.post(`/api/invites/${token}/accept`, { password: 'correct horse battery' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toEqual({ name: 'Enter your name.' });
    const short = await browser.post(`/api/invites/${token}/accept`, { name: 'Ana', password: 'short' });
    expect(short.status).toBe(400);

    const accepted = await browser.post(`/api/invites/${token}/accept`, {
      name: 'Ana',
      password: 'correct horse battery',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      account: { email: 'ana@example.test', name: 'Ana' },
      projects: [{ name: 'Default project', role: 'translator', languages: ['fr'] }],
      sso: false,
    });
    const cookie = accepted.headers.getSetCookie().find((line) => line.startsWith('translator_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect((await browser.get('/api/auth/session')).body.account.email).toBe('ana@example.test');

    // The link is used up.
    expect((await h.anonymous.get(`/api/invites/${token}`)).body.error.code).toBe('invite_not_found');

    const stranger = new TestClient(h.url);
    const wrong = await stranger.post('/api/auth/login', {
      email: 'ana@example.test',
      password: 'wrong password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
    const nobody = await stranger.post('/api/auth/login', {
      email: 'nobody@example.test',
      password: 'whatever',
    });
    expect(nobody.body.error.code).toBe('invalid_credentials');
    const right = await stranger.post('/api/auth/login', {
      email: 'ANA@example.test',
      password: 'correct horse battery',
    });
    expect(right.status).toBe(200);
    expect(right.body.csrfToken).toEqual(expect.any(String));
  });

  it('signing out ends the session', async () => {
    const { client } = await signedInMember(h, 'viewer');
    expect((await client.get('/api/translations/all')).status).toBe(200);
    const refused = await client.post('/api/auth/logout', undefined, {
      headers: { 'x-csrf-token': 'forged' },
    });
    expect(refused.body.error.code).toBe('csrf_invalid');
    expect((await client.post('/api/auth/logout')).body).toEqual({ logoutUrl: null });
    expect((await client.get('/api/auth/session')).body).toBeNull();
    expect((await client.get('/api/translations/all')).status).toBe(401);
  });

  it('an existing account joins a second project with its password, or its session', async () => {
    const other = await h.newProject('Blog');
    const ana = await signedInMember(h, 'viewer');
    const invite = async () =>
      (
        (await other.client.post('/api/members/invites', { email: ana.email, role: 'manager' })).body
          .path as string
      )
        .split('/')
        .at(-1)!;

    const token = await invite();
    expect((await h.anonymous.get(`/api/invites/${token}`)).body.accountExists).toBe(true);
    const stranger = new TestClient(h.url);
    const wrong = await stranger.post(`/api/invites/${token}/accept`, { password: 'not the password' });
    expect(wrong.body.error.code).toBe('invalid_credentials');
    const someoneElse = await signedInMember(h, 'viewer');
    const elsewhere = await someoneElse.client.post(`/api/invites/${token}/accept`, {});
    expect(elsewhere.body.error.code).toBe('invite_other_account');

    const joined = await ana.client.post(`/api/invites/${token}/accept`, {});
    expect(joined.status).toBe(200);
    expect(joined.body.projects.map((p: { name: string; role: string }) => `${p.name}:${p.role}`)).toEqual([
      'Default project:viewer',
      'Blog:manager',
    ]);
    const blog = await ana.client.get('/api/project', { headers: { 'x-project-id': String(other.id) } });
    expect(blog.body.name).toBe('Blog');
  });
});

describe('the session on the project API', () => {
  it('names its project, carries its CSRF token on writes, and reaches only projects it belongs to', async () => {
    const { client } = await signedInMember(h, 'manager');
    const noProject = await client.get('/api/translations/all', { headers: { 'x-project-id': '' } });
    expect(noProject.body.error.code).toBe('project_required');
    const other = await h.newProject('Elsewhere');
    const foreign = await client.get('/api/translations/all', {
      headers: { 'x-project-id': String(other.id) },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('not_a_member');
    const forged = await client.post(
      '/api/translations',
      { lang: 'fr', translations: [{ key: 'Hello', value: 'x' }] },
      {
        headers: { 'x-csrf-token': 'forged' },
      },
    );
    expect(forged.body.error.code).toBe('csrf_invalid');
    expect((await save(client, 'fr', 'Hello', 'Bonjour')).status).toBe(200);
  });

  it('records the account as the author of a change', async () => {
    const { client, email } = await signedInMember(h, 'translator', ['de']);
    expect((await save(client, 'de', 'Goodbye', 'Tschüss')).status).toBe(200);
    const history = await client.get(`/api/translations/history?phrase_id=${ids.Goodbye}&lang=de`);
    expect(history.body.entries[0]).toMatchObject({ newValue: 'Tschüss', actor: email, source: 'human' });
  });

  it('shows the full key only to owners', async () => {
    const owner = await signedInMember(h, 'owner');
    const manager = await signedInMember(h, 'manager');
    expect((await owner.client.get('/api/project')).body.api_key).toBe(h.key);
    const seen = await manager.client.get('/api/project');
    expect(seen.body.api_key).toBeUndefined();
    expect(seen.body.page_key).toBe(h.pageKey);
    const patched = await manager.client.patch('/api/project', { name: 'Default project' });
    expect(patched.body.api_key).toBeUndefined();
  });
});

describe('roles', () => {
  it('a viewer reads and changes nothing', async () => {
    const { client } = await signedInMember(h, 'viewer');
    expect((await client.get('/api/translations/all?lang=de')).status).toBe(200);
    const refused = await save(client, 'fr', 'Hello', 'Salut');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/viewer/);
  });

  it('a translator works on their languages only and sees no other', async () => {
    const { client } = await signedInMember(h, 'translator', ['fr']);
    expect((await client.get('/api/languages')).body).toEqual([{ code: 'fr', name: 'French' }]);
    expect((await client.get('/api/project')).body.settings.languages).toEqual(['fr']);
    expect((await save(client, 'fr', 'Goodbye', 'Au revoir')).status).toBe(200);
    const german = await save(client, 'de', 'Hello', 'Hallo');
    expect(german.status).toBe(403);
    expect(german.body.error.message).toMatch(/fr.*not de/);
    expect((await client.get('/api/translations/all?lang=de')).status).toBe(403);
    expect((await client.get('/api/translations/all?lang=fr')).status).toBe(200);

    // By id, the language of the row decides.
    await save(h.client, 'de', 'Hello', 'Hallo');
    expect((await client.delete(`/api/translations/${await translationId('Hello', 'de')}`)).status).toBe(403);
    const frId = await translationId('Goodbye', 'fr');
    const review = await client.patch('/api/translations/state', { ids: [frId], state: 'reviewed' });
    expect(review.status).toBe(403);
    expect((await client.patch('/api/project/settings', { settings: { languages: ['fr'] } })).status).toBe(
      403,
    );
  });

  it('a reviewer marks their languages’ translations reviewed', async () => {
    const { client } = await signedInMember(h, 'reviewer', ['fr']);
    await save(h.client, 'fr', 'Hello', 'Bonjour');
    await save(h.client, 'de', 'Goodbye', 'Tschüss');
    const fr = await translationId('Hello', 'fr');
    const de = await translationId('Goodbye', 'de');
    expect((await client.patch('/api/translations/state', { ids: [fr], state: 'reviewed' })).body).toEqual({
      ok: true,
      updated: 1,
    });
    expect((await client.patch('/api/translations/state', { ids: [fr, de], state: 'reviewed' })).status).toBe(
      403,
    );
    expect((await client.post('/api/ai-jobs', { lang: 'fr', key_ids: [ids.Hello] })).status).toBe(403);
  });

  it('a manager runs the project but not its keys or its team', async () => {
    const { client } = await signedInMember(h, 'manager');
    expect(
      (await client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } })).status,
    ).toBe(200);
    expect((await client.post('/api/project/regenerate-key')).status).toBe(403);
    expect((await client.post('/api/project/reset-database')).status).toBe(403);
    expect((await client.get('/api/members')).status).toBe(403);
    expect(
      (await client.post('/api/members/invites', { email: 'x@example.test', role: 'owner' })).status,
    ).toBe(403);
  });
});

describe('the team', () => {
  it('an owner invites, changes roles and removes members; the last owner stays', async () => {
    const other = await h.newProject('Team');
    const first = await signedInMember(h, 'owner', [], other);
    const second = await signedInMember(h, 'translator', ['fr'], other).catch((error: Error) => error);
    // The project has no languages yet: a translator's cannot be named.
    expect(String(second)).toMatch(/unknown_language|422/);
    await other.client.patch('/api/project/settings', { settings: { languages: ['fr', 'it'] } });
    const translator = await signedInMember(h, 'translator', ['fr'], other);

    const noLanguages = await first.client.post('/api/members/invites', {
      email: 'z@example.test',
      role: 'reviewer',
    });
    expect(noLanguages.status).toBe(422);
    expect(noLanguages.body.error.fields.languages).toMatch(/languages/);

    const team = await first.client.get('/api/members');
    expect(team.body.members.map((m: { email: string; role: string }) => m.role).sort()).toEqual([
      'owner',
      'translator',
    ]);

    expect(
      (
        await first.client.patch(`/api/members/${translator.accountId}`, {
          role: 'reviewer',
          languages: ['it'],
        })
      ).status,
    ).toBe(200);
    expect((await translator.client.get('/api/languages')).body).toEqual([{ code: 'it', name: 'Italian' }]);

    const demote = await first.client.patch(`/api/members/${first.accountId}`, { role: 'manager' });
    expect(demote.body.error.code).toBe('last_owner');
    expect((await first.client.delete(`/api/members/${first.accountId}`)).body.error.code).toBe('last_owner');

    expect((await first.client.delete(`/api/members/${translator.accountId}`)).status).toBe(200);
    expect((await translator.client.get('/api/languages')).body.error.code).toBe('not_a_member');
  });

  it('a withdrawn or replaced invitation stops working', async () => {
    const firstLink = (
      await h.client.post('/api/members/invites', { email: 'bo@example.test', role: 'viewer' })
    ).body;
    const secondLink = (
      await h.client.post('/api/members/invites', { email: 'bo@example.test', role: 'manager' })
    ).body;
    expect((await h.anonymous.get(`/api/invites/${firstLink.path.split('/').at(-1)}`)).status).toBe(404);
    const pending = (await h.client.get('/api/members')).body.invites.filter(
      (invite: { email: string }) => invite.email === 'bo@example.test',
    );
    expect(pending).toHaveLength(1);
    expect(pending[0].role).toBe('manager');
    expect((await h.client.delete(`/api/members/invites/${secondLink.id}`)).status).toBe(200);
    expect((await h.anonymous.get(`/api/invites/${secondLink.path.split('/').at(-1)}`)).status).toBe(404);
  });

  it('builds the invitation link from the configured public URL, never from Host', async () => {
    await h.restart({
      accounts: { publicUrl: 'https://translate.example.test', oidc: undefined, inviteDays: 7 },
    });
    const invite = await h.client.post(
      '/api/members/invites',
      { email: 'cy@example.test', role: 'viewer' },
      {
        headers: { host: 'evil.example.test' },
      },
    );
    expect(invite.body.url).toBe(`https://translate.example.test${invite.body.path}`);
    await h.restart();
  });
});

describe('in-page editing', () => {
  const PAGE = 'http://127.0.0.1:8080/shop/cart?step=2';
  const withToken = (token: string, origin: string | null = 'http://127.0.0.1:8080') => {
    const client = new TestClient(h.url);
    client.defaultHeaders['x-edit-token'] = token;
    if (origin) client.defaultHeaders.origin = origin;
    return client;
  };
  const editToken = (client: TestClient, url: string = PAGE) => client.post('/api/auth/edit-token', { url });

  it('gives a signed-in member a short-lived token that saves and reviews what their role allows', async () => {
    const reviewer = await signedInMember(h, 'reviewer', ['fr']);
    const issued = await editToken(reviewer.client);
    expect(issued.status).toBe(201);
    expect(issued.body.origin).toBe('http://127.0.0.1:8080');
    expect(new Date(issued.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(25 * 60_000);
    const page = withToken(issued.body.token);

    expect((await save(page, 'fr', 'Hello', 'Bonjour à tous')).status).toBe(200);
    expect((await save(page, 'de', 'Hello', 'Hallo')).status).toBe(403);
    const row = (await page.get('/api/translations/all?lang=fr&search=Hello')).body.rows[0];
    expect(row).toMatchObject({ value: 'Bonjour à tous', state: 'human' });
    expect(
      (await page.patch('/api/translations/state', { ids: [row.translationId], state: 'reviewed' })).status,
    ).toBe(200);
    const history = await h.client.get(`/api/translations/history?phrase_id=${ids.Hello}&lang=fr`);
    expect(history.body.entries[0]).toMatchObject({ newState: 'reviewed', actor: reviewer.email });
    // Nothing else: not the settings, not the keys.
    const settings = await page.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    expect(settings.status).toBe(403);
    expect((await page.get('/api/backups')).status).toBe(403);
  });

  it('stops working when the member leaves, and is refused when forged; keys and viewers get none', async () => {
    const translator = await signedInMember(h, 'translator', ['fr']);
    const { token } = (await editToken(translator.client)).body;
    expect((await withToken(token).get('/api/translations/all?lang=fr')).status).toBe(200);
    await h.client.delete(`/api/members/${translator.accountId}`);
    expect((await withToken(token).get('/api/translations/all?lang=fr')).body.error.code).toBe(
      'not_a_member',
    );
    const forged = `${token.slice(0, -3)}abc`;
    expect((await withToken(forged).get('/api/translations/all?lang=fr')).status).toBe(401);

    expect((await editToken(h.client)).status).toBe(403);
    const viewer = await signedInMember(h, 'viewer');
    expect((await editToken(viewer.client)).status).toBe(403);
  });

  it('is made only for a page on an allowed origin, and works only from that origin', async () => {
    const translator = await signedInMember(h, 'translator', ['fr']);
    for (const url of [
      'https://evil.example/',
      'javascript:alert(1)',
      'http://127.0.0.1.evil.example:8080/',
      'data:text/html,x',
    ]) {
      const refused = await editToken(translator.client, url);
      expect(refused.status, url).toBe(403);
      expect(refused.body.error.code, url).toBe('origin_not_allowed');
    }
    const { token } = (await editToken(translator.client)).body;
    const read = (origin: string | null) => withToken(token, origin).get('/api/translations/all?lang=fr');
    expect((await read('http://127.0.0.1:8080')).status).toBe(200);
    for (const origin of ['https://evil.example', 'http://127.0.0.1:8081', 'http://localhost:8080', null]) {
      const elsewhere = await read(origin);
      expect(elsewhere.status, String(origin)).toBe(403);
      expect(elsewhere.body.error.code, String(origin)).toBe('edit_token_origin');
    }
    expect((await save(withToken(token, 'https://evil.example'), 'fr', 'Hello', 'Volé')).status).toBe(403);
    // Taking the origin off the allowed list stops its tokens.
    await h.client.patch('/api/project/settings', { settings: { allowedOrigins: ['http://localhost:*'] } });
    expect((await read('http://127.0.0.1:8080')).body.error.code).toBe('origin_not_allowed');
    await h.client.patch('/api/project/settings', {
      settings: { allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'] },
    });
    expect((await read('http://127.0.0.1:8080')).status).toBe(200);
  });
});

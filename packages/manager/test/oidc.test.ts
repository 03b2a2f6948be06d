import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_REDIRECTS } from '@app/server-kit/testing';
import { freePort, startManager, type TestManager } from './helpers.ts';
import { signInThroughProvider, ssoEnv, startOidcProvider } from './oidc-provider.ts';

interface Account {
  email: string;
  verified: boolean;
}

const accounts: Record<string, Account> = {
  carol: { email: 'carol@example.test', verified: true },
  mallory: { email: 'admin@example.test', verified: false },
  dave: { email: 'dave@example.test', verified: true },
};

const startProvider = (redirectBase: string) =>
  startOidcProvider(redirectBase, (id) => ({
    email: accounts[id]?.email,
    verified: accounts[id]?.verified,
    givenName: id[0]!.toUpperCase() + id.slice(1),
    familyName: 'Sso',
  }));

describe('single sign-on against a real OpenID provider', () => {
  let test: TestManager;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startProvider(base);
    test = await startManager(ssoEnv(port, provider.issuer));
  });
  afterAll(async () => {
    await test.close();
    await provider.close();
  });

  it('reports SSO in /health and refuses password login, registration and invitations', async () => {
    const client = test.client();
    expect((await client.get('/health')).body.data.oidcEnabled).toBe(true);
    for (const response of [
      await client.post('/auth/login', { username: 'x', password: 'y' }),
      await client.register({ uid: 'someone' }),
      await client.get('/auth/register/invite/whatever'),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('oidc_enabled');
    }
  });

  it('redirects to the provider with PKCE, state and nonce, storing nothing', async () => {
    const sessions = () => test.manager.database.db.selectFrom('sessions').selectAll().execute();
    const before = await sessions();
    const response = await fetch(`${base}/api/v1/auth/oidc/login?redirect=/sites`, { redirect: 'manual' });
    expect(await sessions()).toEqual(before);
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get('location')!);
    expect(target.origin).toBe(provider.issuer);
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['code_challenge', 'state', 'nonce'])
      expect(target.searchParams.get(name)).toBeTruthy();
    expect(target.searchParams.get('redirect_uri')).toBe(`${base}/api/v1/auth/oidc/callback`);
  });

  it('signs in a user with a verified e-mail, creates the account (first one is admin) and honours redirect', async () => {
    const { finalUrl, managerCookie } = await signInThroughProvider(
      `${base}/api/v1/auth/oidc/login?redirect=/sites`,
      'carol',
    );
    expect(finalUrl).toBe(`${base}/sites`);
    const session = await fetch(`${base}/api/v1/session`, {
      headers: { cookie: `connect.sid=${managerCookie}` },
    });
    expect(await session.json()).toEqual({ data: { user: 'carol', isAdmin: true } });
  });

  it('sends the browser back only to a path on this site', async () => {
    for (const redirect of HOSTILE_REDIRECTS) {
      const start = `${base}/api/v1/auth/oidc/login?redirect=${encodeURIComponent(redirect)}`;
      expect((await signInThroughProvider(start, 'carol')).finalUrl, JSON.stringify(redirect)).toBe(
        `${base}/`,
      );
    }
  });

  it('links a second sign-in to the same account by its verified e-mail', async () => {
    const { managerCookie } = await signInThroughProvider(`${base}/api/v1/auth/oidc/login`, 'carol');
    const session = await fetch(`${base}/api/v1/session`, {
      headers: { cookie: `connect.sid=${managerCookie}` },
    });
    expect(((await session.json()) as any).data.user).toBe('carol');
  });

  it('refuses an unverified e-mail, even one matching an existing account', async () => {
    const { finalUrl, managerCookie } = await signInThroughProvider(
      `${base}/api/v1/auth/oidc/login`,
      'mallory',
    );
    expect(finalUrl).toBe(`${base}/login?oidc_error=email_not_verified`);
    const session = await fetch(`${base}/api/v1/session`, {
      headers: { cookie: `connect.sid=${managerCookie ?? ''}` },
    });
    expect(session.status).toBe(401);
    // Signed in as carol before, refused now: both in the audit log.
    await expect
      .poll(async () => {
        const { events } = await test.manager.services.audit.page({ action: 'auth.' }, 50);
        return events.map((event) => [event.action, event.actor.uid, event.errorCode]);
      })
      .toEqual(
        expect.arrayContaining([
          ['auth.sign_in_failed', null, 'email_not_verified'],
          ['auth.sign_in', 'carol', null],
        ]),
      );
  });

  it('rejects a callback whose state does not match', async () => {
    const response = await fetch(`${base}/api/v1/auth/oidc/callback?code=forged&state=forged`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/login\?oidc_error=/);
  });

  const csrfOf = async (cookie: string | undefined): Promise<string> => {
    const csrf = await fetch(`${base}/api/v1/csrf-token`, { headers: { cookie: `connect.sid=${cookie}` } });
    return ((await csrf.json()) as any).data.csrfToken;
  };

  it('returns the provider end-session URL at logout', async () => {
    // New single sign-on users wait for approval unless their domain is allowed.
    const carol = (await signInThroughProvider(`${base}/api/v1/auth/oidc/login`, 'carol')).managerCookie;
    const allowed = await fetch(`${base}/api/v1/settings`, {
      method: 'PUT',
      headers: {
        cookie: `connect.sid=${carol}`,
        'x-csrf-token': await csrfOf(carol),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ssoAllowedDomains: ['example.test'] }),
    });
    expect(allowed.status).toBe(200);
    const { managerCookie } = await signInThroughProvider(`${base}/api/v1/auth/oidc/login`, 'dave');
    const csrfToken = await csrfOf(managerCookie);
    const logout = await fetch(`${base}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { cookie: `connect.sid=${managerCookie}`, 'x-csrf-token': csrfToken },
    });
    const body = (await logout.json()) as any;
    expect(body.data.loggedOut).toBe(true);
    const url = new URL(body.data.logoutUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/login`);
  });
});

describe('single sign-on not configured', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager();
  });
  afterAll(() => test.close());

  it('answers 404 oidc_disabled on the SSO endpoints', async () => {
    for (const path of ['/auth/oidc/login', '/auth/oidc/callback?code=x&state=y']) {
      const response = await test.client().get(path);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('oidc_disabled');
    }
  });
});

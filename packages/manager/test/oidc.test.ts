import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startManager, type TestManager } from './helpers.ts';
import { startOidcProvider } from './oidc-provider.ts';

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

/** Follows redirects like a browser (cookies per origin) and fills the provider's login and consent forms. */
async function signInThroughProvider(startUrl: string, login: string) {
  const jars = new Map<string, Map<string, string>>();
  const jar = (url: string) =>
    jars.get(new URL(url).origin) ?? jars.set(new URL(url).origin, new Map()).get(new URL(url).origin)!;
  const request = async (url: string, init: RequestInit = {}) => {
    const cookies = [...jar(url)].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as object), cookie: cookies },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar(url).set(name!.trim(), value.join('='));
    }
    return response;
  };
  let url = startUrl;
  for (let step = 0; step < 20; step++) {
    const response = await request(url);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      const target = new URL(url);
      // Back at the manager outside its API: the flow is over (signed in, or sent to /login with an error).
      if (target.origin === new URL(startUrl).origin && !target.pathname.startsWith('/api/')) {
        return { finalUrl: url, managerCookie: jar(startUrl).get('connect.sid') };
      }
      continue;
    }
    const html = await response.text();
    const action = html.match(/action="([^"]+)"/)?.[1];
    const prompt = html.match(/name="prompt" value="([^"]+)"/)?.[1];
    if (!action || !prompt) throw new Error(`unexpected page at ${url}: ${html.slice(0, 300)}`);
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    const submitted = await request(new URL(action, url).href, {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    url = new URL(submitted.headers.get('location')!, url).href;
  }
  throw new Error('sign-in did not finish');
}

describe('single sign-on against a real OpenID provider', () => {
  let test: TestManager;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startProvider(base);
    test = await startManager({
      MANAGER_PORT: String(port),
      PUBLIC_URL: base,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'manager',
      OIDC_CLIENT_SECRET: 'manager-secret',
    });
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

  it('redirects to the provider with PKCE, state and nonce', async () => {
    const response = await fetch(`${base}/api/v1/auth/oidc/login?redirect=/sites`, { redirect: 'manual' });
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
  });

  it('rejects a callback whose state does not match', async () => {
    const response = await fetch(`${base}/api/v1/auth/oidc/callback?code=forged&state=forged`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/login\?oidc_error=/);
  });

  it('returns the provider end-session URL at logout', async () => {
    const { managerCookie } = await signInThroughProvider(`${base}/api/v1/auth/oidc/login`, 'dave');
    const csrf = await fetch(`${base}/api/v1/csrf-token`, {
      headers: { cookie: `connect.sid=${managerCookie}` },
    });
    const { csrfToken } = ((await csrf.json()) as any).data;
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

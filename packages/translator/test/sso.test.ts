import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { freePort, HOSTILE_REDIRECTS } from '@app/server-kit/testing';
import { signInThroughProvider, startOidcProvider } from '@app/server-kit/testing/oidc-provider';
import { startHarness, type Harness } from './helpers.ts';

// Single sign-on to the dashboard against a real OpenID provider (oidc-provider on loopback): it
// accepts an invitation, signs an existing account in, and refuses addresses nobody invited.

const people: Record<string, { email: string; verified: boolean }> = {
  rosa: { email: 'rosa@example.test', verified: true },
  theo: { email: 'theo@example.test', verified: true },
  mallory: { email: 'rosa-unverified@example.test', verified: false },
};

let h: Harness;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider(
    {
      clientId: 'translator',
      clientSecret: 'translator-secret',
      redirectUri: `${base}/api/auth/oidc/callback`,
      postLogoutRedirectUri: `${base}/sign-in`,
    },
    (login) => ({
      email: people[login]?.email,
      verified: people[login]?.verified,
      givenName: login,
      familyName: 'Sso',
    }),
  );
  h = await startHarness({
    port,
    accounts: {
      publicUrl: base,
      oidc: { issuer: provider.issuer, clientId: 'translator', clientSecret: 'translator-secret' },
      inviteDays: 7,
    },
  });
});
afterAll(async () => {
  await h?.stop();
  await provider?.close();
});

/** A browser client holding the session cookie the sign-in left. */
function browserWith(cookie: string | undefined) {
  const client = new TestClient(h.url);
  if (cookie) client.defaultHeaders.cookie = `translator_session=${cookie}`;
  return client;
}

describe('single sign-on', () => {
  it('is announced to the sign-in page', async () => {
    expect((await h.anonymous.get('/api/auth/providers')).body).toEqual({ password: true, sso: true });
  });

  it('accepts an invitation for the verified address, then signs the account in again', async () => {
    const invite = await h.client.post('/api/members/invites', {
      email: 'rosa@example.test',
      role: 'manager',
    });
    const token = (invite.body.path as string).split('/').at(-1)!;
    const first = await signInThroughProvider(
      `${base}/api/auth/oidc/start?invite=${token}&next=/review`,
      'rosa',
    );
    expect(first.finalUrl).toBe(`${base}/review`);
    const session = await browserWith(first.cookies.get('translator_session')).get('/api/auth/session');
    expect(session.body).toMatchObject({
      account: { email: 'rosa@example.test', name: 'rosa Sso' },
      projects: [{ role: 'manager' }],
    });

    // The account has no password: only SSO signs it in.
    const login = await h.anonymous.post('/api/auth/login', {
      email: 'rosa@example.test',
      password: 'anything at all',
    });
    expect(login.body.error.code).toBe('invalid_credentials');

    const again = await signInThroughProvider(`${base}/api/auth/oidc/start`, 'rosa');
    expect(again.finalUrl).toBe(`${base}/`);
    const client = browserWith(again.cookies.get('translator_session'));
    const logout = await client.post('/api/auth/logout', undefined, {
      headers: { 'x-csrf-token': (await client.get('/api/auth/session')).body.csrfToken },
    });
    const url = new URL(logout.body.logoutUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/sign-in`);
  });

  it('sends the browser back only to a path of the dashboard, whatever next says', async () => {
    for (const next of HOSTILE_REDIRECTS) {
      const result = await signInThroughProvider(
        `${base}/api/auth/oidc/start?next=${encodeURIComponent(next)}`,
        'rosa',
      );
      expect(result.finalUrl, JSON.stringify(next)).toBe(`${base}/`);
    }
    const kept = await signInThroughProvider(
      `${base}/api/auth/oidc/start?next=%2Freview%3Flang%3Dfr`,
      'rosa',
    );
    expect(kept.finalUrl).toBe(`${base}/review?lang=fr`);
  });

  it('refuses an address nobody invited, and an unverified one', async () => {
    const stranger = await signInThroughProvider(`${base}/api/auth/oidc/start`, 'theo');
    expect(stranger.finalUrl).toBe(`${base}/sign-in?sso_error=no_account`);
    expect(stranger.cookies.get('translator_session')).toBeUndefined();
    const unverified = await signInThroughProvider(`${base}/api/auth/oidc/start`, 'mallory');
    expect(unverified.finalUrl).toBe(`${base}/sign-in?sso_error=email_not_verified`);
  });

  it('refuses an invitation for another address', async () => {
    const invite = await h.client.post('/api/members/invites', {
      email: 'someone@example.test',
      role: 'viewer',
    });
    const token = (invite.body.path as string).split('/').at(-1)!;
    const result = await signInThroughProvider(`${base}/api/auth/oidc/start?invite=${token}`, 'theo');
    expect(result.finalUrl).toBe(`${base}/sign-in?sso_error=invite_other_account`);
    expect((await h.anonymous.get(`/api/invites/${token}`)).status).toBe(200);
  });

  it('refuses a callback without the sign-in it answers', async () => {
    const response = await h.anonymous.get('/api/auth/oidc/callback?code=forged&state=forged');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/sign-in?sso_error=invalid_state');
  });
});

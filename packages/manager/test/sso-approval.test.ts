import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startManager, type TestManager } from './helpers.ts';
import { signInThroughProvider, ssoEnv, startOidcProvider, type OidcAccount } from './oidc-provider.ts';

const accounts: Record<string, Partial<OidcAccount>> = {
  root: { email: 'root@corp.example.test' },
  erin: { email: 'erin@elsewhere.example.test' },
  frank: { email: 'frank@staff.example.test' },
  gina: { email: 'gina@elsewhere.example.test', groups: ['engineers', 'all'] },
  hank: { email: 'hank@elsewhere.example.test', groups: ['sales'] },
  ivy: { email: 'ivy@elsewhere.example.test', roles: ['engineers'] },
};

/** Users made by single sign-on wait for approval unless an allowed e-mail domain or group admits them. */
describe('single sign-on approval', () => {
  let test: TestManager;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let base: string;
  let adminCookie: string;

  const signIn = (login: string) => signInThroughProvider(`${base}/api/v1/auth/oidc/login`, login);
  const asAdmin = async (method: string, path: string, body?: unknown) => {
    const csrf = await fetch(`${base}/api/v1/csrf-token`, { headers: { cookie: adminCookie } });
    const { csrfToken } = ((await csrf.json()) as { data: { csrfToken: string } }).data;
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { cookie: adminCookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const statusOf = async (uid: string) =>
    (await asAdmin('GET', '/users')).body.data.find((user: { uid: string }) => user.uid === uid)?.status;
  const sessionOf = async (cookie: string | undefined) =>
    fetch(`${base}/api/v1/session`, { headers: { cookie: `connect.sid=${cookie ?? ''}` } });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider(base, (id) => ({
      verified: true,
      givenName: id,
      familyName: 'Sso',
      ...accounts[id],
      email: accounts[id]?.email,
    }));
    test = await startManager(ssoEnv(port, provider.issuer));
    const { managerCookie } = await signIn('root');
    adminCookie = `connect.sid=${managerCookie}`;
  });
  afterAll(async () => {
    await test?.close();
    await provider?.close();
  });

  it('makes the first user an active administrator and later ones wait for approval', async () => {
    expect(await (await sessionOf(adminCookie.slice('connect.sid='.length))).json()).toEqual({
      data: { user: 'root', isAdmin: true },
    });
    const erin = await signIn('erin');
    expect(erin.finalUrl).toBe(`${base}/login?oidc_error=account_inactive`);
    expect((await sessionOf(erin.managerCookie)).status).toBe(401);
    expect(await statusOf('erin')).toBe('pending');
    const notices = (await asAdmin('GET', '/notifications')).body.data as {
      action: string;
      message: string;
    }[];
    expect(notices.filter((n) => n.action === 'user.pending').map((n) => n.message)).toEqual([
      'erin registered and waits for approval: approve or suspend the account under Users.',
    ]);
    // Still waiting on the next try; an administrator's approval lets them in.
    expect((await signIn('erin')).finalUrl).toBe(`${base}/login?oidc_error=account_inactive`);
    const erinUid = (await asAdmin('GET', '/users')).body.data.find((u: { uid: string }) => u.uid === 'erin');
    expect((await asAdmin('PUT', `/users/${erinUid.uidNumber}`, { status: 'active' })).status).toBe(200);
    const approved = await signIn('erin');
    expect(approved.finalUrl).toBe(`${base}/`);
    expect((await sessionOf(approved.managerCookie)).status).toBe(200);
  });

  it('offers the allowlists in the settings, defaulting to none and the `groups` claim', async () => {
    const settings = (await asAdmin('GET', '/settings')).body.data;
    expect(settings).toMatchObject({ ssoAllowedDomains: [], ssoAllowedGroups: [], ssoGroupsClaim: 'groups' });
    const bad = await asAdmin('PUT', '/settings', {
      ssoAllowedDomains: ['not a domain', '@x'],
      ssoGroupsClaim: '   ',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'ssoAllowedDomains.0',
      'ssoAllowedDomains.1',
      'ssoGroupsClaim',
    ]);
  });

  it('admits a new user whose verified e-mail is in an allowed domain', async () => {
    const saved = await asAdmin('PUT', '/settings', { ssoAllowedDomains: ['Staff.Example.Test'] });
    expect(saved.body.data.ssoAllowedDomains).toEqual(['staff.example.test']);
    const frank = await signIn('frank');
    expect(frank.finalUrl).toBe(`${base}/`);
    expect(await (await sessionOf(frank.managerCookie)).json()).toEqual({
      data: { user: 'frank', isAdmin: false },
    });
    expect(await statusOf('frank')).toBe('active');
  });

  it('admits a new user who holds an allowed group in the configured claim', async () => {
    await asAdmin('PUT', '/settings', { ssoAllowedGroups: ['engineers'] });
    expect((await signIn('gina')).finalUrl).toBe(`${base}/`);
    expect(await statusOf('gina')).toBe('active');
    expect((await signIn('hank')).finalUrl).toBe(`${base}/login?oidc_error=account_inactive`);
    expect(await statusOf('hank')).toBe('pending');
    await asAdmin('PUT', '/settings', { ssoGroupsClaim: 'roles' });
    expect((await signIn('ivy')).finalUrl).toBe(`${base}/`);
    expect(await statusOf('ivy')).toBe('active');
  });
});

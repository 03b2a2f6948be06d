import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './service-process.ts';

export interface OidcAccount {
  email: string | undefined;
  verified: boolean | undefined;
  givenName: string;
  familyName: string;
  /** Released as the `groups` claim. */
  groups?: string[];
  /** Released as the `roles` claim. */
  roles?: string[];
}

/** The one client the test provider knows: a service's id, secret and the addresses it returns to. */
export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

/**
 * A real OpenID provider (oidc-provider) on loopback with its development login screens, for one
 * client. Any login name signs in; `account` gives its claims.
 */
export async function startOidcProvider(oidcClient: OidcClient, account: (login: string) => OidcAccount) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: oidcClient.clientId,
        client_secret: oidcClient.clientSecret,
        redirect_uris: [oidcClient.redirectUri],
        post_logout_redirect_uris: [oidcClient.postLogoutRedirectUri],
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'given_name', 'family_name', 'groups', 'roles'],
    },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['test-cookie-key'] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => {
        const claims = account(id);
        return {
          sub: id,
          email: claims.email,
          email_verified: claims.verified,
          preferred_username: id,
          given_name: claims.givenName,
          family_name: claims.familyName,
          ...(claims.groups ? { groups: claims.groups } : {}),
          ...(claims.roles ? { roles: claims.roles } : {}),
        };
      },
    }),
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Follows redirects like a browser (cookies per origin) and fills the provider's login and consent
 * forms, until the browser is back at the service outside its API; answers where it ended and the
 * service's cookies.
 */
export async function signInThroughProvider(startUrl: string, login: string) {
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
      // Back at the service outside its API: the flow is over (signed in, or sent to its sign-in page
      // with an error). Sent anywhere off this host: the flow is over too (tests never leave loopback).
      const offHost = target.hostname !== '127.0.0.1';
      if (offHost || (target.origin === new URL(startUrl).origin && !target.pathname.startsWith('/api/'))) {
        return { finalUrl: url, cookies: jar(startUrl) };
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

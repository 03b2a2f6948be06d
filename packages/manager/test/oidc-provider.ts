import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './helpers.ts';

export interface OidcAccount {
  email: string | undefined;
  verified: boolean | undefined;
  givenName: string;
  familyName: string;
}

/**
 * A real OpenID provider (oidc-provider) on loopback with its development login screens; the client
 * `manager` / `manager-secret` may return to `redirectBase`. Any login name signs in; `account` gives
 * its claims.
 */
export async function startOidcProvider(redirectBase: string, account: (login: string) => OidcAccount) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'manager',
        client_secret: 'manager-secret',
        redirect_uris: [`${redirectBase}/api/v1/auth/oidc/callback`],
        post_logout_redirect_uris: [`${redirectBase}/login`],
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'given_name', 'family_name'],
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
        };
      },
    }),
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, close: () => new Promise((resolve) => server.close(resolve)) };
}

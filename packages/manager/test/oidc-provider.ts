import {
  signInThroughProvider as signIn,
  startOidcProvider as start,
  type OidcAccount,
} from '@app/server-kit/testing/oidc-provider';

export type { OidcAccount } from '@app/server-kit/testing/oidc-provider';

/** The real OpenID provider of the kit, with the manager as its client returning to `redirectBase`. */
export const startOidcProvider = (redirectBase: string, account: (login: string) => OidcAccount) =>
  start(
    {
      clientId: 'manager',
      clientSecret: 'manager-secret',
      redirectUri: `${redirectBase}/api/v1/auth/oidc/callback`,
      postLogoutRedirectUri: `${redirectBase}/login`,
    },
    account,
  );

/** The manager's environment for single sign-on with this provider, serving on loopback `port`. */
export const ssoEnv = (port: number, issuer: string) => ({
  MANAGER_PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: 'manager',
  OIDC_CLIENT_SECRET: 'manager-secret',
});

/** Signs in at the provider from the manager's `startUrl`; answers where it ended and the session cookie. */
export async function signInThroughProvider(startUrl: string, login: string) {
  const { finalUrl, cookies } = await signIn(startUrl, login);
  return { finalUrl, managerCookie: cookies.get('connect.sid') };
}

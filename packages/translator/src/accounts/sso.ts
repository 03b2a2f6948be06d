import * as client from 'openid-client';
import { SecretBox } from '@app/server-kit';
import type { AccountsConfig } from '../config.ts';

export const SSO_CALLBACK_PATH = '/api/auth/oidc/callback';
export const SSO_COOKIE = 'translator_sso';
const PENDING_TTL_MS = 10 * 60_000;

/** A sign-in at the provider in progress, kept sealed in the browser's cookie until the callback. */
export interface SsoPending {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Dashboard path to return to. */
  next: string;
  /** The invitation being accepted through SSO, if any. */
  invite?: string | undefined;
  expiresAt: number;
}

/** Why a single sign-on ended without a session: the code the sign-in page explains. */
export class SsoError extends Error {
  constructor(
    readonly code:
      'provider_unreachable' | 'invalid_state' | 'invalid_response' | 'email_not_verified' | 'no_account',
    message: string,
  ) {
    super(message);
  }
}

const isLoopback = (issuer: string) =>
  /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:|\/|$)/.test(issuer);

/**
 * Single sign-on for the dashboard with an OpenID provider: authorization code flow with PKCE, state
 * and nonce. It only proves an e-mail address the provider verified; which account that is (or which
 * invitation it accepts) is the AccountsService's business.
 */
export class SsoService {
  private configuration: Promise<client.Configuration> | undefined;
  private readonly box: SecretBox;

  constructor(
    private readonly config: AccountsConfig & { oidc: NonNullable<AccountsConfig['oidc']> },
    secretKey: string,
  ) {
    this.box = new SecretBox(`translator-sso:${secretKey}`);
  }

  private discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.config.oidc;
    this.configuration ??= client
      .discovery(
        new URL(issuer),
        clientId,
        clientSecret,
        undefined,
        // Plain HTTP only for a provider on this host (development and tests).
        isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new SsoError('provider_unreachable', `OpenID provider discovery failed: ${String(error)}`);
      });
    return this.configuration;
  }

  private get callbackUrl() {
    return `${this.config.publicUrl}${SSO_CALLBACK_PATH}`;
  }

  /** The provider's sign-in address, and the sealed cookie value that the callback needs. */
  async start(next: string, invite: string | undefined): Promise<{ url: string; cookie: string }> {
    const configuration = await this.discover();
    const pending: SsoPending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      next,
      invite,
      expiresAt: Date.now() + PENDING_TTL_MS,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return {
      url: url.href,
      cookie: Buffer.from(this.box.seal(JSON.stringify(pending))).toString('base64url'),
    };
  }

  /** The pending sign-in of a cookie value; undefined when forged, altered or expired. */
  pendingOf(cookie: string | undefined): SsoPending | undefined {
    if (!cookie) return undefined;
    try {
      const pending = JSON.parse(
        this.box.open(Buffer.from(cookie, 'base64url').toString('utf8')),
      ) as SsoPending;
      return pending.expiresAt > Date.now() ? pending : undefined;
    } catch {
      return undefined;
    }
  }

  /** Trades the callback's code for the verified address and name of the person. */
  async finish(
    query: string,
    pending: SsoPending | undefined,
  ): Promise<{ email: string; name: string; idToken: string | undefined }> {
    if (!pending) throw new SsoError('invalid_state', 'No sign-in is in progress for this browser.');
    const configuration = await this.discover();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, new URL(`${this.callbackUrl}?${query}`), {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new SsoError('invalid_response', `The provider's answer was rejected: ${String(error)}`);
    }
    const claims = tokens.claims()!;
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified === true;
    let name = nameIn(claims);
    if (!email || !verified) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      email = info.email;
      verified = info.email_verified === true;
      name ??= nameIn(info);
    }
    if (!email || !verified)
      throw new SsoError('email_not_verified', 'The provider did not confirm a verified e-mail address.');
    return { email: email.toLowerCase(), name: name ?? email.split('@')[0]!, idToken: tokens.id_token };
  }

  async logoutUrl(idToken: string | null): Promise<string | null> {
    try {
      const configuration = await this.discover();
      if (!configuration.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(configuration, {
        post_logout_redirect_uri: `${this.config.publicUrl}/sign-in`,
        ...(idToken ? { id_token_hint: idToken } : { client_id: this.config.oidc.clientId }),
      }).href;
    } catch {
      return null;
    }
  }
}

/** The person's name from the standard claims: `name`, else given and family name. */
function nameIn(claims: Record<string, unknown>): string | undefined {
  if (typeof claims.name === 'string' && claims.name.trim()) return claims.name.trim();
  const parts = [claims.given_name, claims.family_name].filter(
    (part) => typeof part === 'string' && part.trim(),
  );
  return parts.length ? parts.join(' ').trim() : undefined;
}

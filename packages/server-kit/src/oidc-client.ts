// The OpenID Connect protocol both services sign people in with; what an address means (which account,
// which invitation) stays with each service.
import * as client from 'openid-client';

export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** Where the provider sends the browser back (the service's callback URL). */
  callbackUrl: string;
}

/** What a sign-in in progress must find again at the callback. */
export interface OidcPendingFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What a failed sign-in reports; `code` goes to the sign-in page as its explanation. */
export class OidcError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The claims of a verified sign-in, and a way to ask the provider for more (userinfo, fetched once). */
export interface OidcSignIn {
  claims: client.IDToken;
  userInfo(): Promise<client.UserInfoResponse>;
  idToken: string | undefined;
}

const isLoopbackIssuer = (issuer: string) =>
  /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:|\/|$)/.test(issuer);

/**
 * An OpenID provider's client: discovery (plain HTTP only for a provider on this host), the authorization
 * code flow with PKCE, state and nonce, and the provider's logout.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly config: OidcClientConfig) {}

  private discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.config;
    this.configuration ??= client
      .discovery(
        new URL(issuer),
        clientId,
        clientSecret,
        undefined,
        isLoopbackIssuer(issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new OidcError('provider_unreachable', `OpenID provider discovery failed: ${String(error)}`);
      });
    return this.configuration;
  }

  /** The provider's sign-in address, and what the callback must find again. */
  async start(): Promise<{ url: string; pending: OidcPendingFlow }> {
    const configuration = await this.discover();
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.config.callbackUrl,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** Trades the callback's query for the person's verified claims. */
  async finish(query: string, pending: OidcPendingFlow | undefined): Promise<OidcSignIn> {
    if (!pending) throw new OidcError('invalid_state', 'No sign-in is in progress for this browser.');
    const configuration = await this.discover();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(
        configuration,
        new URL(`${this.config.callbackUrl}?${query}`),
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
      );
    } catch (error) {
      throw new OidcError('invalid_response', `The provider's answer was rejected: ${String(error)}`);
    }
    const claims = tokens.claims()!;
    let info: Promise<client.UserInfoResponse> | undefined;
    return {
      claims,
      userInfo: () => (info ??= client.fetchUserInfo(configuration, tokens.access_token, claims.sub)),
      idToken: tokens.id_token,
    };
  }

  /** The provider's logout address returning to `after`, or null when it has none (or cannot be reached). */
  async logoutUrl(idToken: string | null | undefined, after: string): Promise<string | null> {
    try {
      const configuration = await this.discover();
      if (!configuration.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(configuration, {
        post_logout_redirect_uri: after,
        ...(idToken ? { id_token_hint: idToken } : { client_id: this.config.clientId }),
      }).href;
    } catch {
      return null;
    }
  }
}

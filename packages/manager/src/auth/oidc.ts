import * as client from 'openid-client';
import type { Kysely } from 'kysely';
import { retryOnConflict } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import type { OidcConfig } from '../config.ts';
import type { UsersService } from '../users/users-service.ts';
import { ADMIN_GROUP_GID, DEFAULT_GROUP_GID } from '../users/users-repository.ts';
import type { Principal } from './principal.ts';
import type { OidcPending } from './pre-sessions.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { admits, groupsIn } from '../settings/sso-admission.ts';

export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

/** A failure of the sign-in flow whose code ends up in `/login?oidc_error=<code>`. */
export class OidcError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const isLoopbackIssuer = (issuer: string) =>
  /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:|\/|$)/.test(issuer);

/**
 * Single sign-on with an OpenID provider: authorization code flow with PKCE, state and nonce.
 * Accounts are linked only through an e-mail address the provider says is verified.
 */
export class OidcService {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly config: OidcConfig,
    private readonly publicUrl: string,
    private readonly db: Kysely<ManagerDB>,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
  ) {}

  private discover(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.config.issuer),
        this.config.clientId,
        this.config.clientSecret,
        undefined,
        // Plain HTTP only for a provider on this host (development and tests).
        isLoopbackIssuer(this.config.issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new OidcError('provider_unreachable', `OpenID provider discovery failed: ${String(error)}`);
      });
    return this.configuration;
  }

  async start(redirect: string): Promise<{ url: string; state: OidcPending }> {
    const configuration = await this.discover();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier, redirect };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.publicUrl + CALLBACK_PATH,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: state.state,
      nonce: state.nonce,
    });
    return { url: url.href, state };
  }

  async finish(
    query: string,
    pending: OidcPending | undefined,
  ): Promise<{ principal: Principal; idToken: string | undefined }> {
    if (!pending) throw new OidcError('invalid_state', 'No sign-in is in progress for this browser.');
    const configuration = await this.discover();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(
        configuration,
        new URL(`${this.publicUrl}${CALLBACK_PATH}?${query}`),
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
    let info: client.UserInfoResponse | undefined;
    const userInfo = async () =>
      (info ??= await client.fetchUserInfo(configuration, tokens.access_token, claims.sub));
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified === true;
    let preferred = typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined;
    let given = typeof claims.given_name === 'string' ? claims.given_name : undefined;
    let family = typeof claims.family_name === 'string' ? claims.family_name : undefined;
    if (!email || !verified) {
      const info = await userInfo();
      email = info.email;
      verified = info.email_verified === true;
      preferred ??= info.preferred_username;
      given ??= info.given_name;
      family ??= info.family_name;
    }
    if (!email || !verified)
      throw new OidcError('email_not_verified', 'The provider did not confirm a verified e-mail address.');
    /** The groups claim, from the ID token or else from userinfo (asked only for a new user). */
    const groups = async (name: string) => groupsIn(claims[name] ?? (await userInfo())[name]);
    const principal = await this.userFor(email, { preferred, given, family }, groups);
    return { principal, idToken: tokens.id_token };
  }

  async logoutUrl(idToken: string | undefined): Promise<string | null> {
    try {
      const configuration = await this.discover();
      if (!configuration.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(configuration, {
        post_logout_redirect_uri: `${this.publicUrl}/login`,
        ...(idToken ? { id_token_hint: idToken } : { client_id: this.config.clientId }),
      }).href;
    } catch {
      return null;
    }
  }

  /**
   * The account of a verified e-mail address, made on first sign-in: active when it is the first
   * account, or when an allowed e-mail domain or group admits it; otherwise it waits for approval.
   */
  private async userFor(
    email: string,
    names: { preferred?: string; given?: string; family?: string },
    groups: (claim: string) => Promise<string[]>,
  ): Promise<Principal> {
    const existing = await this.users.repo.findByMail(email);
    if (existing) {
      if (existing.status !== 'active') throw inactive(existing.status);
      const user = await this.users.get(existing.uid_number);
      return { uidNumber: user.uidNumber, uid: user.uid, isAdmin: user.isAdmin, via: 'session' };
    }
    const admission = await this.settings.get();
    const admitted =
      admits(admission, email, []) ||
      (admission.ssoAllowedGroups.length > 0 &&
        admits(admission, email, await groups(admission.ssoGroupsClaim)));
    const base = usernameFrom(names.preferred ?? email.split('@')[0]!);
    const created = await retryOnConflict(['uid'], async () =>
      this.db.transaction().execute(async (trx) => {
        await this.users.lockUsers(trx);
        const first = (await this.users.repo.countUsers(trx)) === 0;
        const taken = await this.users.repo.uidsStartingWith(trx, base);
        let uid = base;
        for (let n = 2; taken.includes(uid); n++) uid = `${base}${n}`;
        const row = await this.users.repo.insert(trx, {
          uid,
          given_name: names.given ?? uid,
          sn: names.family ?? '',
          mail: email,
          password_hash: null,
          status: first || admitted ? 'active' : 'pending',
        });
        await this.users.repo.setGroups(
          trx,
          row.uid_number,
          first ? [DEFAULT_GROUP_GID, ADMIN_GROUP_GID] : [DEFAULT_GROUP_GID],
        );
        await this.users.announceIfWaiting(trx, row);
        return { uidNumber: row.uid_number, uid, isAdmin: first, status: row.status };
      }),
    );
    if (created.status !== 'active') throw inactive(created.status);
    return { uidNumber: created.uidNumber, uid: created.uid, isAdmin: created.isAdmin, via: 'session' };
  }
}

const inactive = (status: string) =>
  new OidcError(
    'account_inactive',
    status === 'pending'
      ? 'The account waits for an administrator to approve it.'
      : 'The account is suspended.',
  );

function usernameFrom(value: string): string {
  const cleaned = value
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '')
    .replace(/^[^a-z_]+/, '');
  return (cleaned || 'user').slice(0, 28);
}

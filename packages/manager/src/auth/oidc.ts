import type { Kysely } from 'kysely';
import { retryOnConflict } from '@app/server-kit';
import { OidcClient, OidcError } from '@app/server-kit/oidc';
import type { ManagerDB } from '../db/schema.ts';
import type { OidcConfig } from '../config.ts';
import type { UsersService } from '../users/users-service.ts';
import { ADMIN_GROUP_GID, DEFAULT_GROUP_GID } from '../users/users-repository.ts';
import type { Principal } from './principal.ts';
import type { OidcPending } from './pre-sessions.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { admits, groupsIn } from '../settings/sso-admission.ts';

export { OidcError } from '@app/server-kit/oidc';

export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

/**
 * Single sign-on with an OpenID provider (server-kit's OidcClient: code flow with PKCE, state and
 * nonce). Accounts are linked only through an e-mail address the provider says is verified.
 */
export class OidcService {
  private readonly client: OidcClient;

  constructor(
    config: OidcConfig,
    private readonly publicUrl: string,
    private readonly db: Kysely<ManagerDB>,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
  ) {
    this.client = new OidcClient({ ...config, callbackUrl: publicUrl + CALLBACK_PATH });
  }

  async start(redirect: string): Promise<{ url: string; state: OidcPending }> {
    const { url, pending } = await this.client.start();
    return { url, state: { ...pending, redirect } };
  }

  async finish(
    query: string,
    pending: OidcPending | undefined,
  ): Promise<{ principal: Principal; idToken: string | undefined }> {
    const { claims, userInfo, idToken } = await this.client.finish(query, pending);
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
    return { principal, idToken };
  }

  logoutUrl(idToken: string | undefined): Promise<string | null> {
    return this.client.logoutUrl(idToken, `${this.publicUrl}/login`);
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

import { SecretBox } from '@app/server-kit';
import { OidcClient, OidcError as SsoError, type OidcPendingFlow } from '@app/server-kit/oidc';
import type { AccountsConfig } from '../config.ts';

export const SSO_CALLBACK_PATH = '/api/auth/oidc/callback';
export const SSO_COOKIE = 'translator_sso';
const PENDING_TTL_MS = 10 * 60_000;

export { SsoError };

/** A sign-in at the provider in progress, kept sealed in the browser's cookie until the callback. */
export interface SsoPending extends OidcPendingFlow {
  /** Dashboard path to return to. */
  next: string;
  /** The invitation being accepted through SSO, if any. */
  invite?: string | undefined;
  expiresAt: number;
}

/**
 * Single sign-on for the dashboard with an OpenID provider (server-kit's OidcClient: code flow with
 * PKCE, state and nonce). It only proves an e-mail address the provider verified; which account that is
 * (or which invitation it accepts) is the AccountsService's business. Failures are OidcErrors whose
 * code the sign-in page explains (`no_account` is the AccountsService's).
 */
export class SsoService {
  private readonly client: OidcClient;
  private readonly box: SecretBox;

  constructor(
    private readonly config: AccountsConfig & { oidc: NonNullable<AccountsConfig['oidc']> },
    secretKey: string,
  ) {
    this.client = new OidcClient({ ...config.oidc, callbackUrl: `${config.publicUrl}${SSO_CALLBACK_PATH}` });
    this.box = new SecretBox(`translator-sso:${secretKey}`);
  }

  /** The provider's sign-in address, and the sealed cookie value that the callback needs. */
  async start(next: string, invite: string | undefined): Promise<{ url: string; cookie: string }> {
    const { url, pending: flow } = await this.client.start();
    const pending: SsoPending = { ...flow, next, invite, expiresAt: Date.now() + PENDING_TTL_MS };
    return { url, cookie: Buffer.from(this.box.seal(JSON.stringify(pending))).toString('base64url') };
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
    const { claims, userInfo, idToken } = await this.client.finish(query, pending);
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified === true;
    let name = nameIn(claims);
    if (!email || !verified) {
      const info = await userInfo();
      email = info.email;
      verified = info.email_verified === true;
      name ??= nameIn(info);
    }
    if (!email || !verified)
      throw new SsoError('email_not_verified', 'The provider did not confirm a verified e-mail address.');
    return { email: email.toLowerCase(), name: name ?? email.split('@')[0]!, idToken };
  }

  logoutUrl(idToken: string | null): Promise<string | null> {
    return this.client.logoutUrl(idToken, `${this.config.publicUrl}/sign-in`);
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

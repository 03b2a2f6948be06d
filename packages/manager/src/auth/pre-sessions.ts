import { randomToken, SecretBox } from '@app/server-kit';

/** What a sign-in with the identity provider must find again at its callback. */
export interface OidcPending {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirect: string;
}

/**
 * A browser that has not signed in: its CSRF token and a single sign-on in progress, kept in the
 * session cookie itself (sealed with AES-GCM under a key of its own), so anonymous callers never
 * make the server store anything. Signing in replaces it with a real session.
 */
export interface PreSession {
  csrfToken: string;
  oidc?: OidcPending;
  expiresAt: number;
}

const MARK = 'p.';
const TTL_MS = 24 * 3600_000;

export const isPreSessionCookie = (value: string) => value.startsWith(MARK);

export class PreSessions {
  private readonly box: SecretBox;

  constructor(secretKey: string) {
    this.box = new SecretBox(`pre-session:${secretKey}`);
  }

  create(): PreSession {
    return { csrfToken: randomToken(24), expiresAt: Date.now() + TTL_MS };
  }

  /** The session cookie holding `session` (see setSessionCookie). */
  cookie(session: PreSession): { token: string; expiresAt: number } {
    const sealed = Buffer.from(this.box.seal(JSON.stringify(session))).toString('base64url');
    return { token: MARK + sealed, expiresAt: session.expiresAt };
  }

  /** The pre-session in a cookie value; undefined when it was forged, altered or has expired. */
  open(value: string): PreSession | undefined {
    if (!isPreSessionCookie(value)) return undefined;
    try {
      const session = JSON.parse(
        this.box.open(Buffer.from(value.slice(MARK.length), 'base64url').toString('utf8')),
      ) as PreSession;
      return typeof session.csrfToken === 'string' && session.expiresAt > Date.now() ? session : undefined;
    } catch {
      return undefined;
    }
  }
}

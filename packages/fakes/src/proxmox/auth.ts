import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { safeDecode } from '../shared/ids.ts';
import type { FakeRequest } from '../shared/types.ts';
import { authError, permissionError, pveError } from './errors.ts';

export interface AuthIdentity {
  /** `user@realm` */
  user: string;
  /** Set for API-token callers. */
  tokenid?: string;
  via: 'token' | 'ticket';
}

const TICKET_LIFETIME_S = 2 * 60 * 60;
/** `verify_rsa_ticket(…, -20, 40)`: a VNC ticket is good from 20 s before its stamp to 40 s after. */
const VNC_TICKET_AGE_S = { min: -20, max: 40 };

/** Who a request runs as: the token id for a token (`user@realm!name`), else the user. */
export function authId(identity: AuthIdentity): string {
  return identity.tokenid ? `${identity.user}!${identity.tokenid}` : identity.user;
}

/** API tokens, user passwords, tickets and CSRF tokens, as pve-access-control checks them. */
export class PveAuth {
  private secret = randomBytes(32);
  /** `user@realm!tokenid` → secret */
  readonly tokens = new Map<string, string>();
  /** `user@realm` → password */
  readonly users = new Map<string, string>();
  /** Privileges taken from a user or token (`authId`); everyone holds every other one. */
  private readonly withheld = new Map<string, Set<string>>();

  addToken(fullTokenId: string, secret: string): void {
    if (!/^[^@!\s]+@[^@!\s]+![A-Za-z][A-Za-z0-9._-]*$/.test(fullTokenId)) {
      throw new Error(`token id must look like user@realm!name, got ${fullTokenId}`);
    }
    this.tokens.set(fullTokenId, secret);
  }

  addUser(userid: string, password: string): void {
    this.users.set(userid, password);
  }

  /** `authid` loses `privilege` everywhere (e.g. `VM.Console`). */
  withhold(authid: string, privilege: string): void {
    this.withheld.set(authid, (this.withheld.get(authid) ?? new Set()).add(privilege));
  }

  /** The `['perm', path, [privilege]]` check of a method's `permissions`: 403 when not held. */
  checkPrivilege(identity: AuthIdentity, path: string, privilege: string): void {
    if (this.withheld.get(authId(identity))?.has(privilege)) throw permissionError(`${path}, ${privilege}`);
  }

  /** Gives back what `withhold` took. */
  grant(authid: string, privilege: string): void {
    this.withheld.get(authid)?.delete(privilege);
  }

  /** Holds `privilege` (the check termproxy has `/access/vncticket` make, by `authid`). */
  holds(authid: string, privilege: string): boolean {
    return !this.withheld.get(authid)?.has(privilege);
  }

  /** `assemble_vnc_ticket`: `PVEVNC:<stamp>::<signature>`, the signature over authid, path and port. */
  vncTicket(authid: string, path: string, port: number): string {
    const plain = `PVEVNC:${stamp(Math.floor(Date.now() / 1000))}`;
    return `${plain}::${this.sign(`${plain}:${authid}:${path}:${port}`)}`;
  }

  /** `verify_vnc_ticket`: right signature for authid, path and port, and young enough. */
  verifyVncTicket(ticket: string, authid: string, path: string, port: number): boolean {
    const match = /^(PVEVNC:([0-9A-F]{8}))::([^:\s]+)$/.exec(ticket);
    if (!match || !safeEqual(this.sign(`${match[1]!}:${authid}:${path}:${port}`), match[3]!)) return false;
    const age = Date.now() / 1000 - parseInt(match[2]!, 16);
    return age > VNC_TICKET_AGE_S.min && age < VNC_TICKET_AGE_S.max;
  }

  /** Tickets and CSRF tokens issued so far stop working (as when the cluster's auth key is replaced). */
  revokeTickets(): void {
    this.secret = randomBytes(32);
  }

  /** `POST /access/ticket`: password or a valid ticket (renewal). */
  login(username: string, password: string, realm?: string): { user: string; ticket: string; csrf: string } {
    const user = username.includes('@') ? username : realm ? `${username}@${realm}` : username;
    const renewed = this.verifyTicket(password);
    const ok = renewed ? renewed === user : this.users.has(user) && this.users.get(user) === password;
    if (!ok) throw pveError(401, 'authentication failure');
    return { user, ticket: this.issueTicket(user), csrf: this.csrfToken(user) };
  }

  /** Authenticates a request by API token or ticket (+ CSRF header on writes); throws the 401s. */
  authenticate(req: FakeRequest): AuthIdentity {
    const authorization = String(req.headers.authorization ?? '');
    const token = /^PVEAPIToken[= ](.+)$/.exec(authorization);
    if (token) return this.checkToken(token[1]!);
    const ticket = this.ticketFromRequest(req, authorization);
    if (ticket === undefined) throw authError('No ticket');
    const user = this.verifyTicket(ticket);
    if (!user || !this.users.has(user)) throw authError('Authentication failed!');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const csrf = String(req.headers.csrfpreventiontoken ?? '');
      if (!this.verifyCsrf(user, csrf)) throw authError('Permission denied - invalid csrf token');
    }
    return { user, via: 'ticket' };
  }

  private checkToken(value: string): AuthIdentity {
    const match = /^([^!]+)!([^=\s]+)[=\s](.+)$/.exec(value.trim());
    if (!match) throw authError('Authentication failed!');
    const [, user, tokenid, secret] = match as unknown as [string, string, string, string];
    const stored = this.tokens.get(`${user}!${tokenid}`);
    if (!stored || !safeEqual(stored, secret)) throw authError('Authentication failed!');
    return { user, tokenid, via: 'token' };
  }

  private ticketFromRequest(req: FakeRequest, authorization: string): string | undefined {
    const fromHeader = /^PVEAuthCookie=(.+)$/.exec(authorization);
    if (fromHeader) return safeDecode(fromHeader[1]!);
    const cookie = String(req.headers.cookie ?? '');
    for (const part of cookie.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === 'PVEAuthCookie') return safeDecode(rest.join('='));
    }
    return undefined;
  }

  private sign(data: string): string {
    return createHmac('sha256', this.secret).update(data).digest('base64');
  }

  private issueTicket(user: string): string {
    const data = `PVE:${user}:${stamp(Math.floor(Date.now() / 1000))}`;
    return `${data}::${this.sign(data)}`;
  }

  private verifyTicket(ticket: string): string | undefined {
    const match = /^(PVE:([^:]+):([0-9A-F]{8}))::(.+)$/.exec(ticket);
    if (!match || !safeEqual(this.sign(match[1]!), match[4]!)) return undefined;
    const age = Date.now() / 1000 - parseInt(match[3]!, 16);
    return age >= -300 && age < TICKET_LIFETIME_S ? match[2] : undefined;
  }

  private csrfToken(user: string, time = Math.floor(Date.now() / 1000)): string {
    const hex = stamp(time);
    return `${hex}:${this.sign(`${hex}:${user}`).replace(/=+$/, '')}`;
  }

  private verifyCsrf(user: string, token: string): boolean {
    const match = /^([0-9A-F]{8}):/.exec(token);
    if (!match) return false;
    const time = parseInt(match[1]!, 16);
    return safeEqual(this.csrfToken(user, time), token) && Date.now() / 1000 - time < TICKET_LIFETIME_S;
  }
}

/** A ticket's time stamp: 8 upper-case hex digits. */
function stamp(seconds: number): string {
  return seconds.toString(16).toUpperCase().padStart(8, '0');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

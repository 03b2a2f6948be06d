import { forbidden, conflict } from '@app/server-kit';
import type { Kysely } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { checkUserFields } from '../users/user-rules.ts';
import { ADMIN_GROUP_GID, DEFAULT_GROUP_GID, type UserStatus } from '../users/users-repository.ts';
import type { UsersService } from '../users/users-service.ts';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '@app/server-kit/passwords';
import type { Principal } from './principal.ts';
import type { SessionStore } from './sessions.ts';
import type { TokenStore } from './tokens.ts';
import type { ApiKeyService } from './api-keys.ts';
import type { BackgroundTasks } from '../common/background.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { fail, failAs } from '../errors/catalogue.ts';

export interface Registration {
  uid: string;
  givenName: string;
  sn: string;
  mail: string;
  userPassword: string;
  inviteToken?: string | undefined;
}

/** Self-service account flows: register, log in, invitations, password reset. */
export class AccountService {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly users: UsersService,
    private readonly tokens: TokenStore,
    private readonly sessions: SessionStore,
    private readonly apiKeys: ApiKeyService,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly background: BackgroundTasks,
    private readonly audit: AuditLog,
  ) {}

  /** The first user becomes an active administrator; a valid invitation makes an active user; others wait. */
  async register(input: Registration): Promise<{ uid: string; status: UserStatus; message: string }> {
    checkUserFields(input);
    const invite = input.inviteToken ? await this.tokens.findInvite(input.inviteToken) : undefined;
    if (input.inviteToken && !invite)
      throw fail('invalid_invite', 'This invitation is invalid or has expired.');
    if (invite && invite.email !== input.mail.toLowerCase()) {
      throw fail('email_mismatch', 'Register with the e-mail address the invitation was sent to.', {
        mail: 'must match the invitation',
      });
    }
    const passwordHash = await hashPassword(input.userPassword);
    const status = await this.db.transaction().execute(async (trx) => {
      await this.users.lockUsers(trx);
      const first = (await this.users.repo.countUsers(trx)) === 0;
      if (invite && !(await this.tokens.useInvite(trx, invite.id))) {
        throw fail('invalid_invite', 'This invitation has already been used.');
      }
      const status: UserStatus = first || invite ? 'active' : 'pending';
      const row = await this.users.repo.insert(trx, {
        uid: input.uid,
        given_name: input.givenName,
        sn: input.sn,
        mail: input.mail,
        password_hash: passwordHash,
        status,
      });
      await this.users.repo.setGroups(
        trx,
        row.uid_number,
        first ? [DEFAULT_GROUP_GID, ADMIN_GROUP_GID] : [DEFAULT_GROUP_GID],
      );
      await this.users.announceIfWaiting(trx, row);
      await this.audit.within(trx, { type: 'user', id: row.uid_number });
      return status;
    });
    const message =
      status === 'active'
        ? 'Your account is active. You can log in now.'
        : 'Your account was created and waits for an administrator to approve it.';
    return { uid: input.uid, status, message };
  }

  async login(username: string, password: string): Promise<Principal> {
    const row = await this.users.repo.findByUid(username.trim().toLowerCase());
    const valid = await verifyPassword(row?.password_hash, password);
    if (!row || !valid) throw fail('invalid_credentials', 'Wrong username or password.');
    if (row.status !== 'active') {
      throw fail(
        'account_inactive',
        row.status === 'pending'
          ? 'Your account waits for an administrator to approve it.'
          : 'Your account is suspended. Contact an administrator.',
      );
    }
    const user = await this.users.get(row.uid_number);
    return { uidNumber: user.uidNumber, uid: user.uid, isAdmin: user.isAdmin, via: 'session' };
  }

  async inviteEmail(token: string): Promise<string> {
    const invite = await this.tokens.findInvite(token);
    if (!invite) throw failAs(404, 'invalid_invite', 'This invitation is invalid or has expired.');
    return invite.email;
  }

  /**
   * Mails the invitation link; without SMTP settings, answers it instead (`inviteUrl`), for the
   * administrator to hand over. Either way it is the same single-use token, stored only as its hash.
   */
  async invite(address: string): Promise<{ email: string; message: string; inviteUrl?: string }> {
    const email = address.trim().toLowerCase();
    checkUserFields({ mail: email });
    if (await this.users.repo.findByMail(email))
      throw conflict('A user with this e-mail already exists.', { email: 'is already registered' });
    const token = await this.audit.audited((trx) => this.tokens.createInvite(email, trx));
    const inviteUrl = `${this.publicUrl}/register?invite=${encodeURIComponent(token)}`;
    if (!(await this.mailer.configured())) {
      return {
        email,
        message: `E-mail is not set up, so no invitation was sent: give ${email} this link yourself. It registers one account, within 24 hours.`,
        inviteUrl,
      };
    }
    await this.mailer.send({
      to: email,
      subject: 'You are invited to the container manager',
      text:
        `You have been invited to create an account.\n\n` +
        `Register here (the link is valid for 24 hours):\n${inviteUrl}\n`,
    });
    return { email, message: `Invitation sent to ${email}.` };
  }

  /**
   * Answers at once, the same whether or not the account exists: looking it up and sending the mail
   * happen in the background, so neither the answer nor its timing tells anything.
   */
  requestPasswordReset(usernameOrEmail: string): void {
    this.background.run('password reset e-mail', () => this.sendReset(usernameOrEmail));
  }

  private async sendReset(usernameOrEmail: string): Promise<void> {
    const key = usernameOrEmail.trim().toLowerCase();
    const row = key.includes('@')
      ? await this.users.repo.findByMail(key)
      : await this.users.repo.findByUid(key);
    if (!row || row.status !== 'active') return;
    const token = await this.tokens.createReset(row.uid_number);
    await this.mailer.send({
      to: row.mail,
      subject: 'Reset your password',
      text:
        `Someone asked to reset the password of ${row.uid}. If it was you, open this link within an hour:\n` +
        `${this.publicUrl}/reset-password/${encodeURIComponent(token)}\n\nIf it was not you, ignore this message.`,
    });
  }

  async resetUsername(token: string): Promise<string> {
    const reset = await this.tokens.findReset(token);
    if (!reset) throw fail('invalid_token', 'This reset link is invalid or has expired.');
    return reset.uid;
  }

  /** Sets the new password, ends every session and, unless told not to, revokes every API key. */
  async completePasswordReset(
    token: string,
    password: string,
    confirmPassword: string,
    revokeApiKeys: boolean,
  ): Promise<void> {
    if (password !== confirmPassword)
      throw fail('mismatch', 'The passwords do not match.', { confirmPassword: 'does not match' });
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw fail('weak_password', `Use at least ${MIN_PASSWORD_LENGTH} characters.`, {
        password: `must be at least ${MIN_PASSWORD_LENGTH} characters`,
      });
    }
    const reset = await this.tokens.findReset(token);
    if (!reset) throw fail('invalid_token', 'This reset link is invalid or has expired.');
    const passwordHash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      if (!(await this.tokens.useReset(trx, reset.id)))
        throw fail('invalid_token', 'This reset link has already been used.');
      await this.users.repo.setPasswordHash(trx, reset.uid_number, passwordHash);
      await this.audit.within(trx, { type: 'user', id: reset.uid_number });
      if (revokeApiKeys) await this.apiKeys.revokeAll(reset.uid_number, trx);
    });
    await this.sessions.destroyForUser(reset.uid_number);
  }

  /**
   * The development login (DEV_LOGIN, loopback callers only): signs in as a password-less account that
   * is not an administrator, created on first use (as `dev` by default). Never an administrator or an
   * account with a password, so it cannot be used to take over a real account.
   */
  async devLogin(username: string): Promise<Principal> {
    const uid = username.trim().toLowerCase();
    checkUserFields({ uid });
    if ((await this.users.repo.countUsers()) === 0) {
      throw fail(
        'register_first',
        'Register the first account (it becomes the administrator) before using the development login.',
      );
    }
    const existing = await this.users.repo.findByUid(uid);
    const user = await this.users.get(existing?.uid_number ?? (await this.createDevAccount(uid)));
    if (existing?.password_hash || user.isAdmin) {
      throw forbidden(
        'The development login only signs in accounts that have no password and are not administrators.',
      );
    }
    if (user.status !== 'active') throw fail('account_inactive', 'This account is not active.');
    return { uidNumber: user.uidNumber, uid: user.uid, isAdmin: false, via: 'session' };
  }

  private createDevAccount(uid: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.users.repo.insert(trx, {
        uid,
        given_name: 'Developer',
        sn: uid,
        mail: `${uid}@localhost.localdomain`,
        password_hash: null,
        status: 'active',
      });
      await this.users.repo.setGroups(trx, row.uid_number, [DEFAULT_GROUP_GID]);
      return row.uid_number;
    });
  }
}

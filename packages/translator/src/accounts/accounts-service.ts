import { randomToken, sha256Hex } from '@app/server-kit';
import { hashPassword, verifyPassword } from '@app/server-kit/passwords';
import type { TranslatorContext } from '../context.ts';
import type { MemberRole } from '../db/schema.ts';
import { fail } from '../errors/catalogue.ts';
import type { AccountsRepository } from './accounts-repository.ts';
import { accessOf, isLanguageScoped, type Membership } from './roles.ts';
import type { AccountSession, SessionStore } from './sessions.ts';
import { EditTokens } from './edit-tokens.ts';

export interface NewMember {
  email: string;
  role: MemberRole;
  languages: string[];
}

/** What an invitation link opens, before it is accepted. */
export interface InvitePreview {
  projectName: string;
  email: string;
  role: MemberRole;
  languages: string[];
  /** An account with this address exists: accepting asks for its password rather than a new one. */
  accountExists: boolean;
}

/** How the person accepting an invitation shows who they are. */
export type InviteProof =
  | { kind: 'password'; name?: string | undefined; password: string }
  | { kind: 'account'; accountId: number }
  | { kind: 'sso'; email: string; name: string };

export const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Dashboard accounts: signing in, invitations, and who holds which role in a project. Accounts are made
 * only by accepting an invitation, so nobody can sign up to a deployment uninvited.
 */
export class AccountsService {
  readonly editTokens: EditTokens;

  constructor(
    private readonly ctx: Pick<TranslatorContext, 'config' | 'dialect'>,
    readonly repo: AccountsRepository,
    readonly sessions: SessionStore,
  ) {
    this.editTokens = new EditTokens(ctx.config.secretKey);
  }

  /** Who an edit token speaks for, with their role in its project; undefined once it is not valid. */
  async editor(token: string) {
    const grant = this.editTokens.verify(token);
    const account = grant && (await this.repo.findById(grant.accountId));
    if (!grant || !account) return undefined;
    const member = await this.repo.membership(grant.projectId, account.id);
    return {
      projectId: grant.projectId,
      accountId: account.id,
      email: account.email,
      origin: grant.origin,
      member,
    };
  }

  /** The account of an e-mail address and password; the answer takes as long when there is none. */
  async login(email: string, password: string) {
    const account = await this.repo.findByEmail(normalEmail(email));
    if (!(await verifyPassword(account?.password_hash, password)) || !account)
      throw fail('invalid_credentials');
    return account.id;
  }

  /** The signed-in account and the projects it belongs to (what the dashboard starts from). */
  async describe(session: AccountSession) {
    return {
      account: { id: session.accountId, email: session.email, name: session.name },
      csrfToken: session.csrfToken,
      projects: (await this.repo.projectsOf(session.accountId)).map((project) => ({
        ...project,
        access: accessOf(project.role),
      })),
      sso: this.ctx.config.accounts.oidc !== undefined,
    };
  }

  membership(projectId: number, accountId: number): Promise<Membership | undefined> {
    return this.repo.membership(projectId, accountId);
  }

  // Invitations

  async invite(projectId: number, member: NewMember, actor: string) {
    const token = randomToken(24);
    const now = Date.now();
    const expiresAt = new Date(now + this.ctx.config.accounts.inviteDays * 86_400_000).toISOString();
    const email = normalEmail(member.email);
    const id = await this.repo.insertInvite({
      project_id: projectId,
      token_hash: sha256Hex(token),
      email,
      role: member.role,
      languages: JSON.stringify(scopedLanguages(member)),
      invited_by: actor,
      expires_at: expiresAt,
      created_at: new Date(now).toISOString(),
    });
    const path = `/invite/${token}`;
    const base = this.ctx.config.accounts.publicUrl;
    return {
      id,
      email,
      role: member.role,
      languages: scopedLanguages(member),
      expiresAt,
      path,
      url: base ? base + path : null,
    };
  }

  async preview(token: string): Promise<InvitePreview> {
    const invite = await this.repo.inviteByToken(sha256Hex(token), new Date().toISOString());
    if (!invite) throw fail('invite_not_found');
    const account = await this.repo.findByEmail(invite.email);
    return {
      projectName: invite.projectName,
      email: invite.email,
      role: invite.role,
      languages: invite.languages,
      accountExists: account !== undefined,
    };
  }

  /**
   * Accepts an invitation. A new account takes a name and a password, or comes from the OpenID
   * provider's verified address; an existing one proves itself by its password, by being signed in, or
   * by that verified address. The invitation is used up.
   */
  async accept(token: string, proof: InviteProof): Promise<{ accountId: number }> {
    return this.repo.transaction(async (trx) => {
      const invite = await this.repo.inviteByToken(sha256Hex(token), new Date().toISOString(), trx);
      if (!invite) throw fail('invite_not_found');
      const existing = await this.repo.findByEmail(invite.email, trx);
      if (
        (proof.kind === 'sso' && proof.email !== invite.email) ||
        (proof.kind === 'account' && proof.accountId !== existing?.id)
      )
        throw fail('invite_other_account');
      let accountId = existing?.id;
      if (
        existing &&
        proof.kind === 'password' &&
        !(await verifyPassword(existing.password_hash, proof.password))
      )
        throw fail('invalid_credentials', `Enter the password of the account ${invite.email}.`);
      if (accountId === undefined) {
        const name = proof.kind === 'account' ? '' : proof.name?.trim();
        if (!name || (proof.kind === 'password' && !proof.password))
          throw fail('validation_failed', undefined, {
            ...(name ? {} : { name: 'Enter your name.' }),
            ...(proof.kind === 'password' && !proof.password ? { password: 'Choose a password.' } : {}),
          });
        accountId = await this.repo.insertAccount(trx, {
          email: invite.email,
          name,
          passwordHash: proof.kind === 'password' ? await hashPassword(proof.password) : null,
        });
      }
      await this.repo.upsertMember(trx, invite.projectId, accountId, invite.role, invite.languages);
      await this.repo.deleteInvite(trx, invite.projectId, invite.id);
      return { accountId };
    });
  }

  /** The account of an address the OpenID provider verified; undefined when nobody invited it. */
  async accountOfVerifiedEmail(email: string) {
    return (await this.repo.findByEmail(normalEmail(email)))?.id;
  }

  async cancelInvite(projectId: number, id: number) {
    if (!(await this.repo.transaction((trx) => this.repo.deleteInvite(trx, projectId, id))))
      throw fail('not_found', 'No such invitation (it may have been accepted already).');
  }

  // Members

  async team(projectId: number) {
    const [members, invites] = await Promise.all([
      this.repo.members(projectId),
      this.repo.invites(projectId, new Date().toISOString()),
    ]);
    return { members, invites };
  }

  /** Changes a member's role; the last owner cannot stop being one. */
  async changeRole(projectId: number, accountId: number, change: Omit<NewMember, 'email'>) {
    await this.repo.transaction(async (trx) => {
      await this.repo.lockProject(trx, projectId, this.ctx.dialect);
      const current = await this.repo.membership(projectId, accountId, trx);
      if (!current) throw fail('not_found', 'This account is not a member of the project.');
      if (
        current.role === 'owner' &&
        change.role !== 'owner' &&
        (await this.repo.ownerCount(trx, projectId)) <= 1
      )
        throw fail('last_owner');
      await this.repo.updateMember(trx, projectId, accountId, change.role, scopedLanguages(change));
    });
  }

  async remove(projectId: number, accountId: number) {
    await this.repo.transaction(async (trx) => {
      await this.repo.lockProject(trx, projectId, this.ctx.dialect);
      const current = await this.repo.membership(projectId, accountId, trx);
      if (!current) throw fail('not_found', 'This account is not a member of the project.');
      if (current.role === 'owner' && (await this.repo.ownerCount(trx, projectId)) <= 1)
        throw fail('last_owner');
      await this.repo.deleteMember(trx, projectId, accountId);
    });
  }
}

/** Languages matter only for translators and reviewers. */
const scopedLanguages = (member: { role: MemberRole; languages: string[] }) =>
  isLanguageScoped(member.role) ? [...new Set(member.languages)] : [];

import type { Kysely } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';
import { notFound } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { ContainersRepository } from './containers-repository.ts';
import type { ContainersService } from './containers-service.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import { fail } from '../errors/catalogue.ts';
import type { Notices } from '../notifications/notices.ts';
import type { AuditLog } from '../audit/audit-log.ts';

/** Sharing: owner and admins manage it; collaborators may list it. A new collaborator is told. */
export class CollaboratorsService {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly repo: ContainersRepository,
    private readonly containers: ContainersService,
    private readonly users: UsersRepository,
    private readonly notices: Notices,
    private readonly audit: AuditLog,
  ) {}

  async list(principal: Principal, siteId: number, id: number) {
    const record = await this.containers.record(principal, siteId, id, 'read');
    return { collaborators: await this.repo.collaborators(record.id) };
  }

  /** Idempotent: sharing with an existing collaborator changes nothing. */
  async add(principal: Principal, siteId: number, id: number, username: string) {
    const record = await this.containers.record(principal, siteId, id, 'manage');
    const name = username.trim();
    const [uidNumber] = await this.containers.collaboratorNumbers([name]);
    if (uidNumber === record.ownerUid) {
      throw fail('already_owner', `${name} owns this container already.`);
    }
    return this.db.transaction().execute(async (trx) => {
      const before = await this.repo.collaborators(record.id, trx);
      await this.repo.addCollaborators(record.id, [uidNumber!], trx);
      if (!before.includes(name)) {
        await this.notices.containerShared(trx, record, principal.uid, [uidNumber!]);
      }
      await this.audit.within(trx);
      return { collaborators: await this.repo.collaborators(record.id, trx) };
    });
  }

  async remove(principal: Principal, siteId: number, id: number, username: string) {
    const record = await this.containers.record(principal, siteId, id, 'manage');
    const uidNumber = (await this.users.numbersOf([username])).get(username);
    const removed =
      uidNumber !== undefined &&
      (await this.audit.audited((trx) => this.repo.removeCollaborator(record.id, uidNumber, trx)));
    if (!removed) {
      throw notFound(`${username} is not a collaborator of this container.`);
    }
    return { collaborators: await this.repo.collaborators(record.id) };
  }
}

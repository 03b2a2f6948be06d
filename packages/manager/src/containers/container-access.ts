import { forbidden, notFound } from '@app/server-kit';
import { fail } from '../errors/catalogue.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContainerRecord, ContainersRepository } from './containers-repository.ts';

export const containerNotFound = () => notFound('Container not found.');

export type Access = 'manage' | 'read';

/**
 * Admins and the owner manage a container; collaborators read it; anyone else is told it does not
 * exist (404), so ids of other people's containers leak nothing.
 */
export async function accessTo(
  repo: ContainersRepository,
  principal: Principal,
  record: ContainerRecord | undefined,
  wanted: Access,
): Promise<ContainerRecord> {
  if (!record) throw containerNotFound();
  if (principal.isAdmin || record.ownerUid === principal.uidNumber) return record;
  if (!(await repo.isCollaborator(record.id, principal.uidNumber))) throw containerNotFound();
  if (wanted === 'manage') {
    throw forbidden(
      'Collaborators can view this container; only its owner or an administrator can change it.',
    );
  }
  return record;
}

/** The record of a container that has an instance on its node; 409 no_instance (with what was meant) if not. */
export function withInstance(
  record: ContainerRecord,
  purpose: string,
): ContainerRecord & { containerId: string } {
  if (record.containerId) return { ...record, containerId: record.containerId };
  throw fail(
    'no_instance',
    `${record.hostname} has no instance ${purpose}: it is being created or its create failed.`,
  );
}

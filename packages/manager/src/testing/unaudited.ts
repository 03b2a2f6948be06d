import type { Transaction } from 'kysely';
import type { AuditLog } from '../audit/audit-log.ts';
import type { ManagerDB } from '../db/schema.ts';

/**
 * For a service spec over an in-memory repository (which ignores the transaction it is handed): runs
 * each audited write as is. The audit entries themselves are tested against a database.
 */
export const UNAUDITED: Pick<AuditLog, 'audited'> = {
  audited: (write) => write(Object.freeze({}) as Transaction<ManagerDB>),
};

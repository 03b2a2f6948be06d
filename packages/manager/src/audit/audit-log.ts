import { AsyncLocalStorage } from 'node:async_hooks';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { AuditEventsTable, ManagerDB } from '../db/schema.ts';
import type { AuditRepository, AuditRow } from './audit-repository.ts';
import {
  SYSTEM_ACTOR,
  type AuditActor,
  type AuditEntry,
  type AuditEvent,
  type AuditFilter,
  type AuditTarget,
} from './audit-entry.ts';
import { detailsOf, rowIdOf, storedDetails } from './audit-details.ts';

/**
 * The entry an audited request will leave, held in the request's async context (request-audit.ts
 * opens it) so that services reach it without being handed the request.
 */
export interface AuditScope {
  requestId: string;
  action: string;
  /** The action a failed request is recorded as (`auth.sign_in_failed`); else `action`. */
  failedAction: string;
  /** Null until the caller is known (request-audit.ts); nobody signed in: `system`. */
  actor: AuditActor | null;
  sourceAddress: string | null;
  target: AuditTarget;
  details: Record<string, unknown> | null;
  /** The route's one success status (from its response schema), written by `within` beforehand. */
  successStatus: number | null;
  /** `within` wrote the entry in a transaction: it commits or rolls back with the change. */
  written: boolean;
  /** An error code for a failure answered without an error status (the OIDC callback redirects). */
  failure: string | null;
}

/**
 * A request's entry handed to a job that makes the change in its own transaction (a container's delete,
 * maybe in another process): the job writes it there with `withinJob`. Kept in the job's payload.
 */
export type CarriedAudit = Pick<
  AuditScope,
  'requestId' | 'action' | 'actor' | 'sourceAddress' | 'target' | 'details' | 'successStatus'
>;

const CSV_CHUNK = 500;
const DAY_MS = 86_400_000;

/**
 * The audit log. How an entry gets written, from strongest to weakest:
 * - `within(trx)`: a service's transaction writes the current request's entry beside its change, so a
 *   committed change always has its entry and a rolled-back one leaves none; the request's answer then
 *   only settles the entry's HTTP status. Every route that changes rows does this (most are in
 *   test/audit-transactions.test.ts); `audited(write)` gives a change without a transaction of its own
 *   one, and a request that queues or cancels a job writes its entry with the job's row.
 * - `carry`, `handedOff` and `withinJob(trx, carried)`: a container's DELETE hands its entry to the
 *   delete job it queues (maybe run in another process), which writes it in the transaction removing
 *   the record; the request waits for the job and its answer settles the entry like `within`'s.
 * - the generic fallback (`finish` with nothing written): a request refused before any change, one
 *   that changes no row (an e-mail to all users, a node connection test, a password reset request,
 *   whose token is made in the background so that the answer tells nothing), or a DELETE joining the
 *   delete job another request queued is recorded when it has been answered, its outcome read from
 *   the HTTP status.
 * - `record(entry, trx?)`: an event of its own (a terminal session), in `trx` when given.
 * A request that failed gets a failure entry either way.
 */
export class AuditLog {
  private readonly scopes = new AsyncLocalStorage<AuditScope>();

  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly repo: AuditRepository,
    private readonly retentionDays: () => Promise<number>,
  ) {}

  /** Runs `fn` (the rest of a request) with `scope` as the current request's entry. */
  run<T>(scope: AuditScope, fn: () => T): T {
    return this.scopes.run(scope, fn);
  }

  /** Adds to the current request's entry what the route or service learns (an actor signing in, a target). */
  describe(more: { actor?: AuditActor; target?: AuditTarget }): void {
    const scope = this.scopes.getStore();
    if (!scope) return;
    if (more.actor) scope.actor = more.actor;
    if (more.target) scope.target = { ...scope.target, ...more.target };
  }

  /** Marks the current request failed although it answers with a success status (a redirect). */
  failed(errorCode: string): void {
    const scope = this.scopes.getStore();
    if (scope) scope.failure = errorCode;
  }

  /**
   * Writes the current request's entry in `trx`, the transaction of the change it records. Called again
   * by a retried transaction, it writes again: only the attempt that commits leaves its entry.
   */
  async within(trx: Transaction<ManagerDB>, target?: AuditTarget, action?: string): Promise<void> {
    const scope = this.scopes.getStore();
    if (!scope) return;
    if (target) scope.target = { ...scope.target, ...target };
    if (action) scope.action = scope.failedAction = action;
    await this.repo.insert(rowOf(scope, 'success', scope.successStatus, null), trx);
    scope.written = true;
  }

  /** The current request's entry, for the payload of a job that will write it (`withinJob`). */
  carry(): CarriedAudit | undefined {
    const scope = this.scopes.getStore();
    return scope && carriedOf(scope);
  }

  /**
   * The job given `carry()` is queued: the request no longer writes its success entry itself; `finish`
   * settles the one the job wrote, or records the failure.
   */
  handedOff(): void {
    const scope = this.scopes.getStore();
    if (scope) scope.written = true;
  }

  /** Writes an entry a request handed to a job (`carry`) in `trx`, the job's transaction of the change. */
  async withinJob(trx: Transaction<ManagerDB>, carried: CarriedAudit): Promise<void> {
    await this.repo.insert(rowOf(carried, 'success', carried.successStatus, null), trx);
  }

  /**
   * Runs a change (often a single statement) in a transaction of its own with the current request's
   * entry; `target` names what it made or changed (from its result, for a new row's id).
   */
  audited<T>(
    write: (trx: Transaction<ManagerDB>) => Promise<T>,
    target?: AuditTarget | ((result: T) => AuditTarget),
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const result = await write(trx);
      await this.within(trx, typeof target === 'function' ? target(result) : target);
      return result;
    });
  }

  /** Records an event of its own, in `trx` when given; actor and address default to the current request's. */
  async record(entry: AuditEntry, trx?: Transaction<ManagerDB>): Promise<void> {
    const scope = this.scopes.getStore();
    await this.repo.insert(
      {
        occurred_at: new Date().toISOString(),
        request_id: null,
        ...actorColumns(entry.actor ?? scope?.actor ?? SYSTEM_ACTOR),
        source_address:
          entry.sourceAddress !== undefined ? entry.sourceAddress : (scope?.sourceAddress ?? null),
        action: entry.action,
        ...targetColumns(entry.target ?? {}),
        outcome: entry.outcome,
        http_status: entry.httpStatus ?? null,
        error_code: entry.errorCode ?? null,
        details: entry.details ? JSON.stringify(detailsOf(entry.details)) : null,
      },
      trx,
    );
  }

  /** Closes a request's entry once it is answered: settles the one `within` wrote, or writes it now. */
  async finish(scope: AuditScope, httpStatus: number, errorCode: string | null): Promise<void> {
    const failed = httpStatus >= 400 || scope.failure !== null;
    const outcome = failed ? 'failure' : 'success';
    const code = errorCode ?? scope.failure;
    if (!scope.written) return this.repo.insert(rowOf(scope, outcome, httpStatus, code));
    // The common case costs no second write: the entry already says this success.
    if (!failed && httpStatus === scope.successStatus) return;
    // Settled only if the transaction committed; a rolled-back one left nothing, and the failure is written.
    if (await this.repo.settle(scope.requestId, outcome, httpStatus, code)) return;
    await this.repo.insert(rowOf(scope, outcome, httpStatus, code));
  }

  async page(
    filter: AuditFilter,
    limit: number,
    cursor?: number,
  ): Promise<{ events: AuditEvent[]; nextCursor: number | null }> {
    const rows = await this.repo.page(normalized(filter), limit + 1, cursor);
    const events = rows.slice(0, limit).map(eventOf);
    return { events, nextCursor: rows.length > limit ? events[events.length - 1]!.id : null };
  }

  /** Every entry matching `filter`, newest first, read a chunk at a time (the CSV export streams them). */
  async *all(filter: AuditFilter): AsyncGenerator<AuditEvent> {
    let cursor: number | undefined;
    for (;;) {
      const rows = await this.repo.page(normalized(filter), CSV_CHUNK, cursor);
      for (const row of rows) yield eventOf(row);
      if (rows.length < CSV_CHUNK) return;
      cursor = rows[rows.length - 1]!.id;
    }
  }

  /** Deletes the entries older than the retention setting; how many. */
  async prune(now = Date.now()): Promise<number> {
    const days = await this.retentionDays();
    return this.repo.deleteBefore(new Date(now - days * DAY_MS).toISOString());
  }
}

function normalized(filter: AuditFilter): AuditFilter {
  return {
    ...filter,
    ...(filter.from ? { from: new Date(filter.from).toISOString() } : {}),
    ...(filter.to ? { to: new Date(filter.to).toISOString() } : {}),
  };
}

function carriedOf(scope: AuditScope): CarriedAudit {
  const { requestId, action, actor, sourceAddress, target, details, successStatus } = scope;
  return { requestId, action, actor, sourceAddress, target, details, successStatus };
}

function rowOf(
  scope: CarriedAudit & { failedAction?: string },
  outcome: AuditRow['outcome'],
  httpStatus: number | null,
  errorCode: string | null,
): Insertable<AuditEventsTable> {
  return {
    occurred_at: new Date().toISOString(),
    request_id: scope.requestId,
    ...actorColumns(scope.actor ?? SYSTEM_ACTOR),
    source_address: scope.sourceAddress,
    action: outcome === 'failure' ? (scope.failedAction ?? scope.action) : scope.action,
    ...targetColumns(scope.target),
    outcome,
    http_status: httpStatus,
    error_code: errorCode,
    details: scope.details ? JSON.stringify(scope.details) : null,
  };
}

function actorColumns(actor: AuditActor) {
  return { actor_uid_number: actor.uidNumber, actor_uid: actor.uid, actor_api_key_id: actor.apiKeyId };
}

function targetColumns(target: AuditTarget) {
  return {
    target_type: target.type ?? null,
    target_id: target.id === undefined || target.id === null ? null : String(target.id),
    site_id: target.siteId ?? null,
    container_id: target.containerId ?? null,
  };
}

function eventOf(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    occurredAt: row.occurred_at,
    actor: {
      uidNumber: row.actor_uid_number,
      uid: row.actor_uid,
      apiKeyId: row.actor_api_key_id,
      kind: row.actor_api_key_id ? 'apikey' : row.actor_uid_number === null ? 'system' : 'user',
    },
    sourceAddress: row.source_address,
    action: row.action,
    target: {
      type: row.target_type,
      id: row.target_id,
      siteId: rowIdOf(row.site_id),
      containerId: rowIdOf(row.container_id),
    },
    outcome: row.outcome,
    httpStatus: row.http_status,
    errorCode: row.error_code,
    details: storedDetails(row.details),
  };
}

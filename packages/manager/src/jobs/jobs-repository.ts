import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  ClaimedJob,
  DialectName,
  ExpiredJob,
  JobEvents,
  JobStatus,
  JobStatusRow,
  JobStore,
} from '@app/server-kit';
import type { JobsTable, JobStatusesTable, ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { ContainerJob, JobRecord } from './types.ts';
import { usernameOf } from '../users/users-repository.ts';
import { JobClaims, type LaneFull, type Lanes } from './job-claims-repository.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;
/** A write that commits with a job's (the request's audit entry). */
type Alongside = (trx: Transaction<ManagerDB>) => Promise<void>;

/** Every query over `jobs` and `job_statuses`; announces what it changes through the event bus. */
export class JobsRepository implements JobStore {
  private readonly claims: JobClaims;

  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly dialect: DialectName,
    private readonly events: JobEvents,
    lanes: Lanes = {},
  ) {
    this.claims = new JobClaims(db, dialect, lanes);
  }

  /** Queues a job; `alongside` (the request's audit entry) is written in the insert's transaction. */
  async create(
    command: string,
    createdBy: number,
    payload: unknown,
    alongside?: Alongside,
  ): Promise<{ id: number }> {
    const job = await this.writeWith(alongside, (db) => this.insertIn(db, command, createdBy, payload));
    await this.announceNew(job.id);
    return job;
  }

  /** `write`, and `alongside` in its transaction when it changed something (a truthy result). */
  private writeWith<T>(alongside: Alongside | undefined, write: (db: Db) => Promise<T>): Promise<T> {
    if (!alongside) return write(this.db);
    return this.db.transaction().execute(async (trx) => {
      const result = await write(trx);
      if (result) await alongside(trx);
      return result;
    });
  }

  /**
   * Inserts a pending job inside the caller's transaction, so it commits with the rows that refer to
   * it. The caller announces it (announceNew) after the commit, when a worker can see it.
   */
  async insertIn(
    db: Db,
    command: string,
    createdBy: number,
    payload: unknown,
    lane: string | null = null,
  ): Promise<{ id: number }> {
    const now = nowIso();
    return db
      .insertInto('jobs')
      .values({
        command,
        status: 'pending',
        created_by_uid_number: createdBy,
        payload: JSON.stringify(payload ?? {}),
        container_id: containerOf(payload),
        lane,
        attempts: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  /**
   * Queues a job in `lane` unless its creator or its container already has the lane's queue share
   * waiting or running (then says which); `alongside` as for create.
   */
  async queueInLane(
    lane: string,
    command: string,
    createdBy: number,
    payload: unknown,
    alongside?: Alongside,
  ): Promise<{ id: number } | LaneFull> {
    const queued = await this.claims.queue(lane, createdBy, containerOf(payload), async (trx) => {
      const job = await this.insertIn(trx, command, createdBy, payload, lane);
      await alongside?.(trx);
      return job;
    });
    if ('id' in queued) await this.announceNew(queued.id);
    return queued;
  }

  /** Replaces a job's payload (inside the transaction that inserted it, when it names rows made after it). */
  async setPayload(db: Db, jobId: number, payload: unknown): Promise<void> {
    await db
      .updateTable('jobs')
      .set({ payload: JSON.stringify(payload), container_id: containerOf(payload) })
      .where('id', '=', jobId)
      .execute();
  }

  announceNew(jobId: number): Promise<void> {
    return this.events.announce({ kind: 'new', jobId });
  }

  /** A pending or running job of container `containerId` among `commands`, if any. */
  async activeFor(commands: readonly string[], containerId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('command', 'in', commands)
      .where('container_id', '=', containerId)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    return row?.id;
  }

  /** Records what a job answers its caller with; written by the handler before it returns or throws. */
  async setResult(jobId: number, result: unknown): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', jobId)
      .execute();
  }

  async resultOf<T>(jobId: number): Promise<T | undefined> {
    const row = await this.db.selectFrom('jobs').select('result').where('id', '=', jobId).executeTakeFirst();
    return row?.result ? (JSON.parse(row.result) as T) : undefined;
  }

  async get(id: number): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .select(usernameOf('jobs.created_by_uid_number').as('created_by'))
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        ...toJob(row),
        createdBy: row.created_by ?? `#${row.created_by_uid_number}`,
        createdByUid: row.created_by_uid_number,
        result: row.result ? (JSON.parse(row.result) as unknown) : null,
      }
    );
  }

  async statusOf(id: number): Promise<JobStatus | undefined> {
    const row = await this.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status;
  }

  /** Output rows in write order: a page by offset (the status endpoint), or those after an id (streams). */
  async rows(
    jobId: number,
    page: { offset?: number; afterId?: number; limit: number },
  ): Promise<JobStatusRow[]> {
    let query = this.db.selectFrom('job_statuses').selectAll().where('job_id', '=', jobId);
    if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
    const rows = await query
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset ?? 0)
      .execute();
    return rows.map(toRow);
  }

  /** The newest jobs of container `containerId`, newest first. */
  async forContainer(
    commands: string[],
    containerId: number,
    limit: number,
  ): Promise<(ContainerJob & { createdByUid: number })[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('command', 'in', commands)
      .where('container_id', '=', containerId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      ...toJob(row),
      finishedAt: row.finished_at,
      createdByUid: row.created_by_uid_number,
    }));
  }

  /** The last `count` output rows of each job, oldest first, in one query. */
  async lastRowsOf(jobIds: number[], count: number): Promise<Map<number, JobStatusRow[]>> {
    const last = new Map<number, JobStatusRow[]>(jobIds.map((id) => [id, []]));
    if (!jobIds.length) return last;
    const rows = await this.db
      .selectFrom((db) =>
        db
          .selectFrom('job_statuses')
          .selectAll()
          .select(sql<number>`row_number() over (partition by job_id order by id desc)`.as('nth'))
          .where('job_id', 'in', jobIds)
          .as('ranked'),
      )
      .select(['id', 'job_id', 'output', 'created_at', 'updated_at'])
      .where('nth', '<=', count)
      .orderBy('id')
      .execute();
    for (const row of rows) last.get(row.job_id)!.push(toRow(row));
    return last;
  }

  /** Appends one output row; on PostgreSQL the insert and its NOTIFY are one statement. */
  async appendOutput(jobId: number, output: string): Promise<JobStatusRow> {
    const now = nowIso();
    let row: Selectable<JobStatusesTable>;
    if (this.dialect === 'postgres') {
      const result = await sql<Selectable<JobStatusesTable>>`
        with ins as (
          insert into job_statuses (job_id, output, created_at, updated_at)
          values (${jobId}, ${output}, ${now}, ${now})
          returning id, job_id, output, created_at, updated_at
        )
        select ins.*, pg_notify(${this.events.channel}, ${this.events.origin} || ':r:' || ins.job_id || ':' || ins.id) as notified
        from ins`.execute(this.db);
      row = result.rows[0]!;
    } else {
      row = await this.db
        .insertInto('job_statuses')
        .values({ job_id: jobId, output, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const mapped = toRow(row);
    this.events.emitLocal({ kind: 'row', row: mapped });
    return mapped;
  }

  /** Takes the oldest pending job among `commands` that no lane share holds back (see JobClaims). */
  async claim(
    owner: string,
    commands: string[],
    leaseMs: number,
    { skipLanes = [] }: { skipLanes?: readonly string[] } = {},
  ): Promise<ClaimedJob | undefined> {
    if (!commands.length) return undefined;
    const row = await this.claims.claim(owner, commands, leaseMs, skipLanes);
    if (!row) return undefined;
    // The claim is made: a lost announcement (streams re-read) must not make the caller think otherwise.
    await this.events.announce({ kind: 'status', jobId: row.id, status: 'running' }).catch(() => undefined);
    const lane = row.lane ?? undefined;
    return { ...toJob(row), payload: JSON.parse(row.payload), attempts: row.attempts, lane };
  }

  /** Extends the leases `owner` still holds; returns the ids it no longer holds (cancelled or taken). */
  async heartbeat(owner: string, ids: number[], leaseMs: number): Promise<number[]> {
    if (!ids.length) return [];
    const held = await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: Date.now() + leaseMs })
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .returning('id')
      .execute();
    const still = new Set(held.map((row) => row.id));
    return ids.filter((id) => !still.has(id));
  }

  /** Moves the expired lease of a running job to `owner`; false when another worker was first. */
  async takeOver(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_owner: owner, lease_expires_at: Date.now() + leaseMs, updated_at: nowIso() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_expires_at', '<', Date.now())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a running job of `owner`; false when it was no longer theirs (cancelled, or taken over). */
  async finish(
    id: number,
    owner: string,
    status: Exclude<JobStatus, 'pending' | 'running'>,
  ): Promise<boolean> {
    const now = nowIso();
    const result = await this.db
      .updateTable('jobs')
      .set({ status, lease_owner: null, lease_expires_at: null, finished_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    if (!Number(result.numUpdatedRows)) return false;
    await this.events.announce({ kind: 'status', jobId: id, status });
    return true;
  }

  /** Puts a running job of `owner` back in the queue (shutdown, or recovered from a dead worker). */
  async requeue(id: number, owner: string, { started = true }: { started?: boolean } = {}): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'pending',
        lease_owner: null,
        lease_expires_at: null,
        updated_at: nowIso(),
        // A claim that never started a run does not count as an attempt.
        ...(started ? {} : { attempts: eb('attempts', '-', 1) }),
      }))
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    if (!Number(result.numUpdatedRows)) return false;
    await this.events.announce({ kind: 'new', jobId: id });
    return true;
  }

  /** Running jobs whose lease ran out: their worker died or hangs. */
  async expired(): Promise<ExpiredJob[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['id', 'command', 'attempts', 'lease_owner', 'payload'])
      .where('status', '=', 'running')
      .where('lease_expires_at', '<', Date.now())
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      command: row.command,
      attempts: row.attempts,
      leaseOwner: row.lease_owner,
      payload: JSON.parse(row.payload),
    }));
  }

  /** How many jobs wait and run, by command and status (the queue depth for the metrics). */
  async countActive(): Promise<{ command: string; status: JobStatus; count: number }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['command', 'status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', ['pending', 'running'])
      .groupBy(['command', 'status'])
      .execute();
    return rows.map((row) => ({ command: row.command, status: row.status, count: Number(row.count) }));
  }

  /** pending or running → cancelled; false when the job had already ended. */
  async cancel(id: number, alongside?: Alongside): Promise<boolean> {
    const now = nowIso();
    const cancelled = await this.writeWith(alongside, async (db) => {
      const result = await db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'running'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
    if (!cancelled) return false;
    await this.events.announce({ kind: 'status', jobId: id, status: 'cancelled' });
    return true;
  }
}

/** The container a job is for: container jobs name it as `containerId` in their payload. */
const containerOf = (payload: unknown): number | null => {
  const id = (payload as { containerId?: unknown } | null | undefined)?.containerId;
  return typeof id === 'number' ? id : null;
};

/** A job's own fields; the creator's username is joined where a job is answered (see get). */
const toJob = (row: Selectable<JobsTable>) => ({
  id: row.id,
  command: row.command,
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRow = (row: Selectable<JobStatusesTable>): JobStatusRow => ({
  id: row.id,
  jobId: row.job_id,
  output: row.output,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

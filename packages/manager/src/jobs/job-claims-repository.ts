import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { DialectName } from '@app/server-kit';
import type { JobsTable, ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/**
 * What one lane's jobs may hold, counted over every worker process: running at once, and waiting or
 * running (queued), per creator and per container.
 */
export interface LaneShares {
  runningPerUser: number;
  runningPerContainer: number;
  queuedPerUser: number;
  queuedPerContainer: number;
}

/** The lanes whose jobs are held to shares, by name. */
export type Lanes = Readonly<Record<string, LaneShares>>;

/** Which share a job to queue would pass, and how many jobs it already holds. */
export interface LaneFull {
  full: 'user' | 'container';
  held: number;
}

/** PostgreSQL advisory lock (beside server-kit's MIGRATION_LOCK_KEY) of claims and of lane queueing. */
const LANE_LOCK_KEY = 7_340_212;

type Candidates = ExpressionBuilder<ManagerDB & { candidate: JobsTable }, 'candidate'>;

/** Running jobs of `lane` with the candidate's creator, or its container. */
const runningWith = (lane: string, key: 'created_by_uid_number' | 'container_id') =>
  sql<number>`(select count(*) from jobs as held where held.status = 'running' and held.lane = ${lane} and ${sql.ref(`held.${key}`)} = ${sql.ref(`candidate.${key}`)})`;

/**
 * How jobs are taken from the queue: the oldest pending one whose lane has room. Jobs of the general
 * lane (NULL) and of lanes without shares are taken in order; a job of a lane with shares is passed
 * over while its creator or its container runs its share, so one user's long jobs hold at most their
 * share of all workers and the next user's job goes first.
 *
 * The counts must not be passed by two processes at once: on PostgreSQL each claim and each queueing
 * is a transaction under the lane lock (each statement after it sees what the one before committed);
 * on SQLite each is one write transaction, serialised by the database's single writer.
 */
export class JobClaims {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly dialect: DialectName,
    private readonly lanes: Lanes,
  ) {}

  /** Takes the oldest claimable job among `commands` for `owner`, none of `skipLanes`: its row. */
  claim(
    owner: string,
    commands: string[],
    leaseMs: number,
    skipLanes: readonly string[],
  ): Promise<Selectable<JobsTable> | undefined> {
    return this.locked('claim', (db) => {
      const now = nowIso();
      const pick = db
        .selectFrom('jobs as candidate')
        .select('candidate.id')
        .where('candidate.status', '=', 'pending')
        .where('candidate.command', 'in', commands)
        .where((eb) => this.claimable(eb, skipLanes))
        .orderBy('candidate.id')
        .limit(1);
      return db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          lease_owner: owner,
          lease_expires_at: Date.now() + leaseMs,
          attempts: eb('attempts', '+', 1),
          started_at: now,
          updated_at: now,
        }))
        .where('id', '=', this.dialect === 'postgres' ? pick.forUpdate().skipLocked() : pick)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
    });
  }

  /**
   * Runs `insert` (the job and what commits with it) unless `createdBy` or container `containerId`
   * already has `lane`'s queue share waiting or running; then says which.
   */
  queue(
    lane: string,
    createdBy: number,
    containerId: number | null,
    insert: (trx: Transaction<ManagerDB>) => Promise<{ id: number }>,
  ): Promise<{ id: number } | LaneFull> {
    const shares = this.lanes[lane];
    if (!shares) throw new Error(`job lane "${lane}" has no shares`);
    return this.db.transaction().execute(async (trx): Promise<{ id: number } | LaneFull> => {
      if (this.dialect === 'postgres') await this.lock(trx, 'queue');
      const held = await this.queuedIn(trx, lane, createdBy, containerId);
      if (containerId !== null && held.container >= shares.queuedPerContainer)
        return { full: 'container', held: held.container };
      if (held.user >= shares.queuedPerUser) return { full: 'user', held: held.user };
      return insert(trx);
    });
  }

  private async lock(trx: Transaction<ManagerDB>, what: 'claim' | 'queue') {
    await sql`select pg_advisory_xact_lock(${LANE_LOCK_KEY}, ${what === 'claim' ? 1 : 2})`.execute(trx);
  }

  private locked<T>(what: 'claim' | 'queue', work: (db: Db) => Promise<T>): Promise<T> {
    if (this.dialect !== 'postgres') return work(this.db);
    return this.db.transaction().execute(async (trx) => {
      await this.lock(trx, what);
      return work(trx);
    });
  }

  /** A candidate of the general lane or of a lane without shares, or one within its lane's shares. */
  private claimable(eb: Candidates, skip: readonly string[]): Expression<SqlBool> {
    const unshared = [...Object.keys(this.lanes), ...skip];
    if (!unshared.length) return eb.and([]);
    const open = [eb('candidate.lane', 'is', null), eb('candidate.lane', 'not in', unshared)];
    for (const [lane, shares] of Object.entries(this.lanes)) {
      if (skip.includes(lane)) continue;
      open.push(
        eb.and([
          eb('candidate.lane', '=', lane),
          eb(runningWith(lane, 'created_by_uid_number'), '<', shares.runningPerUser),
          eb.or([
            eb('candidate.container_id', 'is', null),
            eb(runningWith(lane, 'container_id'), '<', shares.runningPerContainer),
          ]),
        ]),
      );
    }
    return eb.or(open);
  }

  /** Waiting or running jobs of `lane`: those of `createdBy`, and those of container `containerId`. */
  private async queuedIn(db: Db, lane: string, createdBy: number, containerId: number | null) {
    const count = (column: 'created_by_uid_number' | 'container_id', value: number | null) =>
      sql<number | string | null>`sum(case when ${sql.ref(column)} = ${value} then 1 else 0 end)`;
    const row = await db
      .selectFrom('jobs')
      .select([
        count('created_by_uid_number', createdBy).as('user'),
        count('container_id', containerId).as('container'),
      ])
      .where('status', 'in', ['pending', 'running'])
      .where('lane', '=', lane)
      .executeTakeFirst();
    return { user: Number(row?.user ?? 0), container: Number(row?.container ?? 0) };
  }
}

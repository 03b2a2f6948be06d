import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { ManagerDB, MetricFigures, MetricLatestTable, MetricSubject } from '../db/schema.ts';

export const MINUTE_S = 60;
export const HOUR_S = 3600;
const HOUR_MS = HOUR_S * 1000;
/** Rows per insert statement (SQLite's bound-parameter limit). */
const INSERT_CHUNK = 500;

export const FIGURES = [
  'cpu_cores',
  'cpu_pct',
  'mem_bytes',
  'mem_pct',
  'disk_bytes',
  'disk_pct',
  'net_in_bps',
  'net_out_bps',
] as const satisfies ReadonlyArray<keyof MetricFigures>;

/** Byte counts are averaged to whole bytes. */
const WHOLE = new Set<keyof MetricFigures>(['mem_bytes', 'disk_bytes']);

export interface SubjectSample extends MetricFigures {
  subject_type: MetricSubject;
  subject_id: number;
}

/** A 1-minute sample of the past (a gap filled from the node's own record), at its own time. */
export interface PastSample extends SubjectSample {
  at_ms: number;
}

export type LatestRow = Selectable<MetricLatestTable>;
export type SortFigure = 'cpu_pct' | 'mem_pct' | 'disk_bytes' | 'net' | 'last_access';

export interface ConsumerRow extends LatestRow {
  hostname: string;
  node_name: string;
  last_accessed_at: string | null;
}

/** `metric_samples`, `metric_latest`, `periodic_leases`, and the subjects a sampling round asks about. */
export class MetricsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /** True when `owner` holds the lease `name` until `now + ms` (taking it when free or expired). */
  async holdLease(name: string, owner: string, now: number, ms: number): Promise<boolean> {
    const row = await this.db
      .insertInto('periodic_leases')
      .values({ name, owner, expires_at: now + ms })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ owner, expires_at: now + ms })
          .where((eb) =>
            eb.or([eb('periodic_leases.owner', '=', owner), eb('periodic_leases.expires_at', '<', now)]),
          ),
      )
      .returning('owner')
      .executeTakeFirst();
    return row?.owner === owner;
  }

  /** Every node's id, and every container made on a node with the id the node knows it by. */
  async subjects() {
    const [nodes, containers] = await Promise.all([
      this.db.selectFrom('nodes').select('id').execute(),
      this.db
        .selectFrom('containers')
        .select(['id', 'node_id', 'container_id'])
        .where('container_id', 'is not', null)
        .execute(),
    ]);
    return { nodeIds: nodes.map((n) => n.id), containers };
  }

  /** Stores one round's 1-minute samples taken at `at` and makes them each subject's latest. */
  async record(at: number, samples: SubjectSample[]): Promise<void> {
    if (!samples.length) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < samples.length; i += INSERT_CHUNK) {
        const chunk = samples.slice(i, i + INSERT_CHUNK);
        await trx
          .insertInto('metric_samples')
          .values(chunk.map((s) => ({ ...s, resolution_s: MINUTE_S, at_ms: at })))
          .onConflict((oc) => oc.columns(['subject_type', 'subject_id', 'resolution_s', 'at_ms']).doNothing())
          .execute();
        const latest: Insertable<MetricLatestTable>[] = chunk.map((s) => ({ ...s, at_ms: at }));
        await trx
          .insertInto('metric_latest')
          .values(latest)
          .onConflict((oc) =>
            oc.columns(['subject_type', 'subject_id']).doUpdateSet((eb) => ({
              at_ms: eb.ref('excluded.at_ms'),
              ...Object.fromEntries(FIGURES.map((f) => [f, eb.ref(`excluded.${f}`)])),
            })),
          )
          .execute();
      }
    });
  }

  /** When each of `ids` was last sampled; absent: never, or forgotten. */
  async latestTimes(type: MetricSubject, ids: number[]): Promise<Map<number, number>> {
    const times = new Map<number, number>();
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const rows = await this.db
        .selectFrom('metric_latest')
        .select(['subject_id', 'at_ms'])
        .where('subject_type', '=', type)
        .where('subject_id', 'in', ids.slice(i, i + INSERT_CHUNK))
        .execute();
      for (const row of rows) times.set(row.subject_id, Number(row.at_ms));
    }
    return times;
  }

  /** Stores 1-minute samples of the past, never over one already there nor as anyone's latest. */
  async recordPast(samples: PastSample[]): Promise<number> {
    let stored = 0;
    for (let i = 0; i < samples.length; i += INSERT_CHUNK) {
      const result = await this.db
        .insertInto('metric_samples')
        .values(samples.slice(i, i + INSERT_CHUNK).map((s) => ({ ...s, resolution_s: MINUTE_S })))
        .onConflict((oc) => oc.columns(['subject_type', 'subject_id', 'resolution_s', 'at_ms']).doNothing())
        .executeTakeFirst();
      stored += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return stored;
  }

  /**
   * Averages the 1-minute samples of every whole hour before `now` not rolled up yet into one
   * hourly row per subject (at the hour's start). Returns how many hourly rows it wrote.
   */
  async rollup(now: number): Promise<number> {
    const last = await this.db
      .selectFrom('metric_samples')
      .select((eb) => eb.fn.max('at_ms').as('at'))
      .where('resolution_s', '=', HOUR_S)
      .executeTakeFirst();
    const from = last?.at === null || last?.at === undefined ? 0 : Number(last.at) + HOUR_MS;
    const to = Math.floor(now / HOUR_MS) * HOUR_MS;
    if (to <= from) return 0;
    const hour = sql<number>`(at_ms / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
    const averages = FIGURES.map((f) =>
      (WHOLE.has(f) ? sql<number>`round(avg(${sql.ref(f)}))` : sql<number>`avg(${sql.ref(f)})`).as(f),
    );
    const result = await this.db
      .insertInto('metric_samples')
      .columns(['subject_type', 'subject_id', 'resolution_s', 'at_ms', ...FIGURES])
      .expression(
        this.db
          .selectFrom('metric_samples')
          .select([
            'subject_type',
            'subject_id',
            sql<number>`${sql.lit(HOUR_S)}`.as('resolution_s'),
            hour.as('at_ms'),
            ...averages,
          ])
          .where('resolution_s', '=', MINUTE_S)
          .where('at_ms', '>=', from)
          .where('at_ms', '<', to)
          .groupBy(['subject_type', 'subject_id', hour]),
      )
      .onConflict((oc) => oc.columns(['subject_type', 'subject_id', 'resolution_s', 'at_ms']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /** Deletes samples of `resolution` older than `before`; returns how many. */
  async prune(resolution: number, before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('metric_samples')
      .where('resolution_s', '=', resolution)
      .where('at_ms', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Forgets the latest figures of subjects not sampled since `before` (gone, or their node unreachable). */
  async pruneLatest(before: number): Promise<void> {
    await this.db.deleteFrom('metric_latest').where('at_ms', '<', before).execute();
  }

  /** A subject's samples of `resolution` from `from` on, oldest first. */
  history(type: MetricSubject, id: number, resolution: number, from: number) {
    return this.db
      .selectFrom('metric_samples')
      .select(['at_ms', ...FIGURES])
      .where('subject_type', '=', type)
      .where('subject_id', '=', id)
      .where('resolution_s', '=', resolution)
      .where('at_ms', '>=', from)
      .orderBy('at_ms')
      .execute();
  }

  /** Every subject's latest figures. */
  latest(): Promise<LatestRow[]> {
    return this.db.selectFrom('metric_latest').selectAll().execute();
  }

  /** The site's containers with latest figures, the biggest first by `sort`, with their last access. */
  topContainers(siteId: number, sort: SortFigure, limit: number): Promise<ConsumerRow[]> {
    // An expression, not the output column's name: PostgreSQL orders by a bare name only.
    const lastAccess = sql<
      string | null
    >`(select max(services.last_accessed_at) from services where services.container_id = containers.id)`;
    const order =
      sort === 'net'
        ? sql`coalesce(metric_latest.net_in_bps, 0) + coalesce(metric_latest.net_out_bps, 0)`
        : sort === 'last_access'
          ? lastAccess
          : sql.ref(`metric_latest.${sort}`);
    return this.db
      .selectFrom('metric_latest')
      .innerJoin('containers', 'containers.id', 'metric_latest.subject_id')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .selectAll('metric_latest')
      .select(['containers.hostname', 'nodes.name as node_name', lastAccess.as('last_accessed_at')])
      .where('metric_latest.subject_type', '=', 'container')
      .where('nodes.site_id', '=', siteId)
      .orderBy(sql`${order} is null`)
      .orderBy(order, 'desc')
      .orderBy('containers.hostname')
      .limit(limit)
      .execute() as Promise<ConsumerRow[]>;
  }
}

import type { CreateTableBuilder, Kysely, Migration } from 'kysely';

/** The figures of one sample (absolute and as a percentage of what was allocated); null: not reported. */
function withFigures<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('cpu_cores', 'double precision')
    .addColumn('cpu_pct', 'double precision')
    .addColumn('mem_bytes', 'bigint')
    .addColumn('mem_pct', 'double precision')
    .addColumn('disk_bytes', 'bigint')
    .addColumn('disk_pct', 'double precision')
    .addColumn('net_in_bps', 'double precision')
    .addColumn('net_out_bps', 'double precision');
}

/**
 * Metrics history (see src/metrics/). `metric_samples` holds 1-minute samples (`resolution_s` 60) and
 * their hourly averages (3600) of a node or a container; the primary key serves a subject's range
 * query, the second index the rollup and pruning by age. `metric_latest` holds each subject's newest
 * sample, one row each, for whoever needs the current figures cheaply (top consumers, Prometheus,
 * alert rules). Subjects have no foreign key: their history goes by age. `periodic_leases`: which
 * process does a periodic task (the sampler) until when.
 */
export const metrics: Migration = {
  async up(db: Kysely<unknown>) {
    await withFigures(
      db.schema
        .createTable('metric_samples')
        .addColumn('subject_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('resolution_s', 'integer', (c) => c.notNull())
        .addColumn('at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('metric_samples_pk', [
          'subject_type',
          'subject_id',
          'resolution_s',
          'at_ms',
        ]),
    ).execute();
    await db.schema
      .createIndex('metric_samples_age')
      .on('metric_samples')
      .columns(['resolution_s', 'at_ms'])
      .execute();
    await withFigures(
      db.schema
        .createTable('metric_latest')
        .addColumn('subject_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('metric_latest_pk', ['subject_type', 'subject_id']),
    ).execute();
    await db.schema
      .createTable('periodic_leases')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('owner', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

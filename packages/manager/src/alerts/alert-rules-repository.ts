import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { AlertRulesTable, AlertStatesTable, ManagerDB, MetricSubject } from '../db/schema.ts';
import { FIGURES } from '../metrics/metrics-repository.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export type AlertRuleRow = Selectable<AlertRulesTable>;
export type AlertStateRow = Selectable<AlertStatesTable>;

/** A subject sampled in a round, with what a rule's scope and message need to know of it. */
export interface SampledSubject {
  subject_type: MetricSubject;
  subject_id: number;
  /** The node's name, or the container's host name. */
  name: string;
  node_id: number;
  site_id: number;
  /** The container's owner; null for a node. */
  owner_uid_number: number | null;
  figures: Record<(typeof FIGURES)[number], number | string | null>;
}

/** `alert_rules` and `alert_states`, and the subjects a sampling round stored. */
export class AlertRulesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  list(): Promise<AlertRuleRow[]> {
    return this.db.selectFrom('alert_rules').selectAll().orderBy('id').execute();
  }

  byId(id: number): Promise<AlertRuleRow | undefined> {
    return this.db.selectFrom('alert_rules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(values: Insertable<AlertRulesTable>, db: Db = this.db): Promise<AlertRuleRow> {
    return db.insertInto('alert_rules').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Undefined when there is no such rule. */
  update(
    id: number,
    values: Updateable<AlertRulesTable>,
    db: Db = this.db,
  ): Promise<AlertRuleRow | undefined> {
    return db.updateTable('alert_rules').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** False when there is no such rule (its states go with it). */
  async delete(id: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A rule's states are stale once its condition changed: they start over. */
  async clearStates(ruleId: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('alert_states').where('rule_id', '=', ruleId).execute();
  }

  states(): Promise<AlertStateRow[]> {
    return this.db.selectFrom('alert_states').selectAll().execute();
  }

  /** States of nodes and containers that no longer exist. */
  statesOfGoneSubjects(): Promise<AlertStateRow[]> {
    return this.db
      .selectFrom('alert_states')
      .selectAll()
      .where((eb) =>
        eb.or(
          (['container', 'node'] as const).map((type) =>
            eb.and([
              eb('subject_type', '=', type),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom(type === 'node' ? 'nodes' : 'containers')
                    .select('id')
                    .whereRef('id', '=', 'alert_states.subject_id'),
                ),
              ),
            ]),
          ),
        ),
      )
      .execute();
  }

  async putState(row: AlertStateRow, db: Db = this.db): Promise<void> {
    await db
      .insertInto('alert_states')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['rule_id', 'subject_type', 'subject_id']).doUpdateSet({
          pending_since: row.pending_since,
          firing_since: row.firing_since,
        }),
      )
      .execute();
  }

  async deleteState(row: Pick<AlertStateRow, 'rule_id' | 'subject_type' | 'subject_id'>, db: Db = this.db) {
    await db
      .deleteFrom('alert_states')
      .where('rule_id', '=', row.rule_id)
      .where('subject_type', '=', row.subject_type)
      .where('subject_id', '=', row.subject_id)
      .execute();
  }

  /** The nodes and containers whose latest figures were sampled at `at`. */
  async sampledAt(at: number): Promise<SampledSubject[]> {
    const [nodes, containers] = await Promise.all([
      this.db
        .selectFrom('metric_latest')
        .innerJoin('nodes', 'nodes.id', 'metric_latest.subject_id')
        .select(['metric_latest.subject_id', 'nodes.name', 'nodes.site_id', ...FIGURES])
        .where('metric_latest.subject_type', '=', 'node')
        .where('metric_latest.at_ms', '=', at)
        .execute(),
      this.db
        .selectFrom('metric_latest')
        .innerJoin('containers', 'containers.id', 'metric_latest.subject_id')
        .innerJoin('nodes', 'nodes.id', 'containers.node_id')
        .select([
          'metric_latest.subject_id',
          'containers.hostname as name',
          'containers.node_id',
          'containers.owner_uid_number',
          'nodes.site_id',
          ...FIGURES,
        ])
        .where('metric_latest.subject_type', '=', 'container')
        .where('metric_latest.at_ms', '=', at)
        .execute(),
    ]);
    const figuresOf = (row: Record<(typeof FIGURES)[number], number | string | null>) =>
      Object.fromEntries(FIGURES.map((f) => [f, row[f]])) as SampledSubject['figures'];
    return [
      ...nodes.map((row) => ({
        subject_type: 'node' as const,
        subject_id: row.subject_id,
        name: row.name,
        node_id: row.subject_id,
        site_id: row.site_id,
        owner_uid_number: null,
        figures: figuresOf(row),
      })),
      ...containers.map((row) => ({
        subject_type: 'container' as const,
        subject_id: row.subject_id,
        name: row.name,
        node_id: row.node_id,
        site_id: row.site_id,
        owner_uid_number: row.owner_uid_number,
        figures: figuresOf(row),
      })),
    ];
  }

  /** Whether the scope's site, node or container exists. */
  async scopeExists(type: 'site' | 'node' | 'container', id: number): Promise<boolean> {
    const table = ({ site: 'sites', node: 'nodes', container: 'containers' } as const)[type];
    return Boolean(await this.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());
  }
}

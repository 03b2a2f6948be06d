import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';
import type { Notices } from '../notifications/notices.ts';
import type { AlertDelivery, AlertEvent } from './alert-delivery.ts';
import type {
  AlertRuleRow,
  AlertRulesRepository,
  AlertStateRow,
  SampledSubject,
} from './alert-rules-repository.ts';
import { toAlertRule } from './alert-rules-service.ts';

/** What an alert's messages name: a sampled subject, or one that no longer exists. */
type SubjectRef = Pick<SampledSubject, 'subject_type' | 'subject_id' | 'name' | 'owner_uid_number'> & {
  deleted?: boolean;
};

/** A change of state worth telling: the rule, its subject, and what the webhook is sent. */
interface Alert {
  rule: AlertRuleRow;
  subject: SubjectRef;
  event: AlertEvent;
}

const keyOf = (ruleId: number, type: string, id: number) => `${ruleId}/${type}/${id}`;

function inScope(rule: AlertRuleRow, subject: SampledSubject): boolean {
  switch (rule.scope_type) {
    case 'containers':
      return subject.subject_type === 'container';
    case 'nodes':
      return subject.subject_type === 'node';
    case 'site':
      return subject.site_id === rule.scope_id;
    case 'node':
      return subject.node_id === rule.scope_id;
    case 'container':
      return subject.subject_type === 'container' && subject.subject_id === rule.scope_id;
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Checks every rule against the figures of a sampling round. Per rule and subject, the condition
 * holding starts a pending state; holding for the rule's duration fires it (one notification, e-mail,
 * webhook), no longer holding resolves it (one more) and forgets the state. Each change of state and
 * its notifications are written in one transaction; e-mail and webhook go out in the background.
 */
export class AlertEvaluator {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly repo: AlertRulesRepository,
    private readonly notices: Pick<Notices, 'alert'>,
    private readonly delivery: Pick<AlertDelivery, 'send'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * The round sampled at `at` (epoch ms): subjects not sampled in it keep their state, except those
   * deleted meanwhile, whose state is dropped (a firing one resolved).
   */
  async evaluate(at: number): Promise<void> {
    const rules = await this.repo.list();
    if (!rules.length) return;
    await this.forgetGoneSubjects(rules, at);
    const [subjects, states] = await Promise.all([this.repo.sampledAt(at), this.repo.states()]);
    const stateOf = new Map(states.map((s) => [keyOf(s.rule_id, s.subject_type, s.subject_id), s]));
    for (const rule of rules) {
      for (const subject of subjects.filter((s) => inScope(rule, s))) {
        const state = stateOf.get(keyOf(rule.id, subject.subject_type, subject.subject_id));
        await this.step(rule, subject, state, at);
      }
    }
  }

  private async step(
    rule: AlertRuleRow,
    subject: SampledSubject,
    state: AlertStateRow | undefined,
    at: number,
  ) {
    const raw = subject.figures[rule.metric];
    const value = raw === null ? null : Number(raw);
    const threshold = Number(rule.threshold);
    const holds = value !== null && (rule.comparison === 'above' ? value > threshold : value < threshold);
    const ids = { rule_id: rule.id, subject_type: subject.subject_type, subject_id: subject.subject_id };
    if (!holds) {
      if (!state) return;
      const resolved = state.firing_since === null ? undefined : 'alert.resolved';
      await this.change(
        (db) => this.repo.deleteState(ids, db),
        resolved && this.event(rule, subject, resolved, value, state.pending_since, at),
      );
      return;
    }
    if (state?.firing_since != null) return;
    const since = state?.pending_since ?? at;
    const fires = at - since >= rule.duration_s * 1000;
    if (state && !fires) return;
    await this.change(
      (db) => this.repo.putState({ ...ids, pending_since: since, firing_since: fires ? at : null }, db),
      fires ? this.event(rule, subject, 'alert.firing', value, since, at) : undefined,
    );
  }

  /** A deleted node or container ends its alerts: a firing one resolves, once, a pending one is dropped. */
  private async forgetGoneSubjects(rules: AlertRuleRow[], at: number) {
    const ruleOf = new Map(rules.map((rule) => [rule.id, rule]));
    for (const state of await this.repo.statesOfGoneSubjects()) {
      const rule = ruleOf.get(state.rule_id)!;
      const subject: SubjectRef = {
        subject_type: state.subject_type,
        subject_id: state.subject_id,
        name: `#${state.subject_id}`,
        owner_uid_number: null,
        deleted: true,
      };
      await this.change(
        (db) => this.repo.deleteState(state, db),
        state.firing_since === null
          ? undefined
          : this.event(rule, subject, 'alert.resolved', null, state.pending_since, at),
      );
    }
  }

  /** Writes the state change and, with `alert`, its notifications; then sends the e-mail and webhook. */
  private async change(
    write: (db: Kysely<ManagerDB> | Transaction<ManagerDB>) => Promise<void>,
    alert: Alert | undefined,
  ) {
    if (!alert) {
      await write(this.db);
      return;
    }
    const { rule, subject, event } = alert;
    await this.db.transaction().execute(async (trx) => {
      await write(trx);
      await this.notices.alert(trx, {
        action: event.event,
        severity: event.event === 'alert.firing' ? 'warning' : 'info',
        message: event.message,
        evidence: {
          ruleId: rule.id,
          subjectType: subject.subject_type,
          subjectId: subject.subject_id,
          value: event.value,
        },
        // The owner hears of an alert on their own container only when the rule is about that container.
        ownerUid: rule.scope_type === 'container' ? subject.owner_uid_number : null,
      });
    });
    this.log.info({ rule: rule.id, subject: `${subject.subject_type}/${subject.subject_id}` }, event.event);
    this.delivery.send(rule, event);
  }

  private event(
    rule: AlertRuleRow,
    subject: SubjectRef,
    event: AlertEvent['event'],
    value: number | null,
    since: number,
    at: number,
  ): Alert {
    const view = toAlertRule(rule);
    const figure = value === null ? 'no longer reported' : String(round(value));
    const message =
      event === 'alert.firing'
        ? `${rule.name}: ${view.metric} of ${subject.subject_type} ${subject.name} is ${figure}, ${rule.comparison} ${view.threshold} for ${rule.duration_s} s.`
        : subject.deleted
          ? `${rule.name} resolved: ${subject.subject_type} ${subject.name} was deleted.`
          : `${rule.name} resolved: ${view.metric} of ${subject.subject_type} ${subject.name} is ${figure}.`;
    const payload: AlertEvent = {
      event,
      rule: {
        id: rule.id,
        name: rule.name,
        metric: view.metric,
        comparison: rule.comparison,
        threshold: view.threshold,
        durationSeconds: rule.duration_s,
      },
      subject: { type: subject.subject_type, id: subject.subject_id, name: subject.name },
      value,
      since: new Date(since).toISOString(),
      at: new Date(at).toISOString(),
      message,
    };
    return { rule, subject, event: payload };
  }
}

import { notFound, validationFailed, type FieldErrors, type SecretBox } from '@app/server-kit';
import type { AlertMetric, AlertScope } from '../db/schema.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { nowIso } from '../common/time.ts';
import { isHttpUrl } from '../common/urls.ts';
import type { AlertRuleRow, AlertRulesRepository } from './alert-rules-repository.ts';
import type { AlertDelivery } from './alert-delivery.ts';

/** The API's metric names and the `metric_latest` figure each one watches. */
export const METRICS = {
  cpuPercent: 'cpu_pct',
  memoryPercent: 'mem_pct',
  diskPercent: 'disk_pct',
  netInBytesPerSecond: 'net_in_bps',
  netOutBytesPerSecond: 'net_out_bps',
} as const satisfies Record<string, AlertMetric>;
export type MetricName = keyof typeof METRICS;
const METRIC_NAMES = Object.fromEntries(
  Object.entries(METRICS).map(([name, column]) => [column, name]),
) as Record<AlertMetric, MetricName>;

/** A day: longer conditions are better watched on the graphs. */
export const MAX_DURATION_S = 86_400;

/** What a rule watches, as the API names it. */
interface AlertCondition {
  name: string;
  metric: MetricName;
  comparison: 'above' | 'below';
  threshold: number;
  durationSeconds: number;
  scope: AlertScope;
}

export interface AlertRuleInput extends AlertCondition {
  scopeId?: number | null | undefined;
  email?: boolean | undefined;
  webhookUrl?: string | null | undefined;
  /** Write-only: blank or omitted keeps the stored secret on update. */
  webhookSecret?: string | null | undefined;
}

export interface AlertRule extends AlertCondition {
  id: number;
  scopeId: number | null;
  email: boolean;
  webhookUrl: string | null;
  hasWebhookSecret: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toAlertRule = (row: AlertRuleRow): AlertRule => ({
  id: row.id,
  name: row.name,
  metric: METRIC_NAMES[row.metric],
  comparison: row.comparison,
  threshold: Number(row.threshold),
  durationSeconds: row.duration_s,
  scope: row.scope_type,
  scopeId: row.scope_id,
  email: Boolean(row.email),
  webhookUrl: row.webhook_url,
  hasWebhookSecret: Boolean(row.webhook_secret_sealed),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const ruleNotFound = () => notFound('Alert rule not found.');

/** Administrators' alert rules; every change is audited in its transaction. */
export class AlertRulesService {
  constructor(
    private readonly repo: AlertRulesRepository,
    private readonly secrets: SecretBox,
    private readonly audit: AuditLog,
    /** The policy webhook delivery holds its calls to: a rule is saved only with a URL it can reach. */
    private readonly delivery: Pick<AlertDelivery, 'refusal'>,
  ) {}

  async list(): Promise<AlertRule[]> {
    return (await this.repo.list()).map(toAlertRule);
  }

  async get(id: number): Promise<AlertRule> {
    const row = await this.repo.byId(id);
    if (!row) throw ruleNotFound();
    return toAlertRule(row);
  }

  async create(input: AlertRuleInput): Promise<AlertRule> {
    const values = await this.checked(input, false);
    const now = nowIso();
    const row = await this.audit.audited(
      (trx) =>
        this.repo.insert(
          {
            ...values,
            webhook_secret_sealed: values.webhook_secret_sealed ?? null,
            created_at: now,
            updated_at: now,
          },
          trx,
        ),
      (created) => ({ type: 'alert_rule', id: created.id }),
    );
    return toAlertRule(row);
  }

  /** Full update; the rule's pending and firing states start over (its condition may have changed). */
  async update(id: number, input: AlertRuleInput): Promise<AlertRule> {
    const current = await this.repo.byId(id);
    if (!current) throw ruleNotFound();
    const { webhook_secret_sealed: secret, ...values } = await this.checked(
      input,
      Boolean(current.webhook_secret_sealed),
    );
    const row = await this.audit.audited(async (trx) => {
      await this.repo.clearStates(id, trx);
      return this.repo.update(
        id,
        {
          ...values,
          // No webhook, no secret; a blank secret keeps the stored one.
          ...(values.webhook_url === null
            ? { webhook_secret_sealed: null }
            : secret
              ? { webhook_secret_sealed: secret }
              : {}),
          updated_at: nowIso(),
        },
        trx,
      );
    });
    if (!row) throw ruleNotFound();
    return toAlertRule(row);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.audit.audited((trx) => this.repo.delete(id, trx)))) throw ruleNotFound();
  }

  private async checked(input: AlertRuleInput, hasSecret: boolean) {
    const fields: FieldErrors = {};
    const name = input.name.trim();
    if (!name) fields.name = 'must not be blank';
    if (!Number.isFinite(input.threshold)) fields.threshold = 'must be a number';
    else if (input.threshold < 0) fields.threshold = 'must not be negative';
    else if (METRICS[input.metric].endsWith('_pct') && input.threshold > 100) {
      fields.threshold = 'must be a percentage between 0 and 100';
    }
    const scopeId = input.scopeId ?? null;
    const scoped = input.scope === 'site' || input.scope === 'node' || input.scope === 'container';
    if (scoped && scopeId === null) fields.scopeId = `must name the ${input.scope}`;
    else if (!scoped && scopeId !== null) fields.scopeId = `must be empty for the scope ${input.scope}`;
    else if (
      scoped &&
      !(await this.repo.scopeExists(input.scope as 'site' | 'node' | 'container', scopeId!))
    ) {
      fields.scopeId = `names a ${input.scope} that does not exist`;
    }
    const webhookUrl = input.webhookUrl?.trim() || null;
    const secret = input.webhookSecret?.trim() || null;
    if (webhookUrl && !isHttpUrl(webhookUrl)) fields.webhookUrl = 'must be an http(s) URL';
    else if (webhookUrl) {
      const refused = await this.delivery.refusal(webhookUrl);
      if (refused)
        fields.webhookUrl = `cannot be delivered: ${refused}; only ALERT_WEBHOOK_ALLOWLIST hosts may be`;
    }
    if (webhookUrl && !secret && !hasSecret) fields.webhookSecret = 'is required with a webhook URL';
    if (secret && secret.length < 16) fields.webhookSecret = 'must be at least 16 characters';
    if (Object.keys(fields).length) throw validationFailed(fields);
    return {
      name,
      metric: METRICS[input.metric],
      comparison: input.comparison,
      threshold: input.threshold,
      duration_s: input.durationSeconds,
      scope_type: input.scope,
      scope_id: scopeId,
      email: input.email ? 1 : 0,
      webhook_url: webhookUrl,
      webhook_secret_sealed: webhookUrl && secret ? this.secrets.seal(secret) : undefined,
    };
  }
}

import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { GuardedClient, HostAllowlist, OutboundError, type SecretBox } from '@app/server-kit';
import type { BackgroundTasks } from '../common/background.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import type { AlertRuleRow } from './alert-rules-repository.ts';

/** What a webhook receives, as its JSON body. */
export interface AlertEvent {
  event: 'alert.firing' | 'alert.resolved';
  rule: {
    id: number;
    name: string;
    metric: string;
    comparison: string;
    threshold: number;
    durationSeconds: number;
  };
  subject: { type: 'node' | 'container'; id: number; name: string };
  /** The figure at the sample that fired or resolved the rule (null: no longer reported). */
  value: number | null;
  /** When the condition started to hold. */
  since: string;
  at: string;
  message: string;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;

/** `sha256=<hex>`: the HMAC-SHA256 of the body with the rule's secret, as `X-Signature-256` carries it. */
export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Sends an alert's e-mail and webhook in the background: sampling never waits for a mail server or a
 * webhook, and a failure is logged, not retried (the next change of state is sent again).
 */
export class AlertDelivery {
  private readonly client: GuardedClient;

  constructor(
    private readonly mailer: Pick<Mailer, 'configured' | 'send'>,
    private readonly users: Pick<UsersRepository, 'activeAdminMails'>,
    private readonly secrets: SecretBox,
    private readonly background: Pick<BackgroundTasks, 'run'>,
    private readonly log: FastifyBaseLogger,
    /** Hosts a webhook may reach in a loopback or private network, and by plain HTTP. */
    webhookAllowlist: string[],
  ) {
    this.client = new GuardedClient({ allowlist: new HostAllowlist(webhookAllowlist) });
  }

  send(rule: AlertRuleRow, event: AlertEvent): void {
    if (rule.email) this.background.run('alert e-mail', () => this.mail(event));
    const url = rule.webhook_url;
    const sealed = rule.webhook_secret_sealed;
    if (url && sealed) this.background.run('alert webhook', () => this.post(url, sealed, event));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async mail(event: AlertEvent) {
    if (!(await this.mailer.configured())) return;
    const subject = `${event.event === 'alert.firing' ? 'Alert' : 'Resolved'}: ${event.rule.name} on ${event.subject.name}`;
    for (const to of await this.users.activeAdminMails()) {
      await this.mailer.send({ to, subject, text: `${event.message}\n` });
    }
  }

  private async post(url: string, sealed: string, event: AlertEvent) {
    const body = JSON.stringify(event);
    const target = new URL(url);
    const where = `${target.origin}${target.pathname}`;
    try {
      const response = await this.client.post(url, body, {
        headers: {
          'content-type': 'application/json',
          'x-signature-256': signature(this.secrets.open(sealed), body),
        },
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok)
        this.log.warn({ rule: event.rule.id, url: where, status: response.status }, 'alert webhook refused');
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      this.log.warn({ rule: event.rule.id, url: where, detail: error.message }, 'alert webhook unreachable');
    }
  }
}

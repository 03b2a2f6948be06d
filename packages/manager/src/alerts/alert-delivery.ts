import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { GuardedClient, HostAllowlist, OutboundError, type SecretBox } from '@app/server-kit';
import type { BackgroundTasks } from '../common/background.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Notices } from '../notifications/notices.ts';
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
/** The waits before a failed webhook's second and third attempt. */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 30_000];
/** A receiver's Retry-After is honoured up to this. */
const RETRY_AFTER_MAX_MS = 5 * 60_000;

/** Why an attempt failed, and whether another may succeed. */
interface AttemptFailure {
  detail: string;
  retryable: boolean;
  retryAfterMs?: number;
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS) : undefined;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `sha256=<hex>`: the HMAC-SHA256 of the body with the rule's secret, as `X-Signature-256` carries it. */
export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Sends an alert's e-mail and webhook in the background: sampling never waits for a mail server or a
 * webhook. A webhook that cannot be reached, answers 5xx or 429 is tried again (three attempts, its
 * Retry-After honoured); one that still fails, or refuses with another 4xx, is told to the
 * administrators as a notification. A shutdown drops retries still waiting.
 */
export class AlertDelivery {
  private readonly client: GuardedClient;

  constructor(
    private readonly mailer: Pick<Mailer, 'configured' | 'send'>,
    private readonly users: Pick<UsersRepository, 'activeAdminMails'>,
    private readonly secrets: SecretBox,
    private readonly background: Pick<BackgroundTasks, 'run'>,
    private readonly log: FastifyBaseLogger,
    private readonly notices: Pick<Notices, 'webhookFailed'>,
    /** Hosts a webhook may reach in a loopback or private network, and by plain HTTP. */
    webhookAllowlist: string[],
    private readonly retryDelaysMs = WEBHOOK_RETRY_DELAYS_MS,
  ) {
    this.client = new GuardedClient({ allowlist: new HostAllowlist(webhookAllowlist) });
  }

  send(rule: AlertRuleRow, event: AlertEvent): void {
    if (rule.email) this.background.run('alert e-mail', () => this.mail(event));
    const url = rule.webhook_url;
    const sealed = rule.webhook_secret_sealed;
    if (url && sealed) this.background.run('alert webhook', () => this.post(url, sealed, event));
  }

  /** Why a webhook to `url` could never be delivered (its scheme, or its address by the guard's policy), or undefined. */
  refusal(url: string): Promise<string | undefined> {
    return this.client.refusal(url);
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
    const headers = {
      'content-type': 'application/json',
      'x-signature-256': signature(this.secrets.open(sealed), body),
    };
    for (let attempt = 1; ; attempt++) {
      const failure = await this.attempt(url, body, headers);
      if (!failure) return;
      const delay = this.retryDelaysMs[attempt - 1];
      this.log.warn(
        { rule: event.rule.id, url: where, attempt, detail: failure.detail },
        'alert webhook failed',
      );
      if (!failure.retryable || delay === undefined) {
        await this.notices.webhookFailed(event.rule, where, failure.detail, attempt);
        return;
      }
      await wait(failure.retryAfterMs ?? delay);
    }
  }

  /** One POST; undefined when the receiver took it (2xx). */
  private async attempt(
    url: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<AttemptFailure | undefined> {
    try {
      const response = await this.client.post(url, body, {
        headers,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return undefined;
      const { status } = response;
      const retryAfterMs = status === 429 ? retryAfter(response.headers.get('retry-after')) : undefined;
      return {
        detail: `answered ${status}`,
        retryable: status >= 500 || status === 429,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return { detail: error.message, retryable: true };
    }
  }
}

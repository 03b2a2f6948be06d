import { sha256Hex } from '@app/server-kit';
import type { QuotaRepository } from './quota-repository.ts';
import { fail } from '../errors/catalogue.ts';

export interface QuotaConfig {
  /** Requests of one kind per client address per window. */
  perAddress: number;
  /** Requests of one kind per account (the e-mail registered, the name or e-mail a reset is asked for). */
  perAccount: number;
  windowSeconds: number;
}

const ACTIONS = {
  register: 'registrations',
  'password-reset': 'password-reset requests',
} as const;

export type QuotaAction = keyof typeof ACTIONS;

/**
 * Quotas on anonymous calls that succeed but cost us (an account row, a mail): per client address
 * and per account, counted whether or not the account exists, so a 429 tells nothing about it.
 */
export class Quotas {
  constructor(
    private readonly repo: QuotaRepository,
    private readonly config: QuotaConfig,
    private readonly now = () => Date.now(),
  ) {}

  /** Counts one `action` from `address` for `account`; 429 rate_limited with Retry-After when over. */
  async take(action: QuotaAction, address: string, account: string): Promise<void> {
    await this.count(action, 'address', address, this.config.perAddress, 'from your address');
    await this.count(
      action,
      'account',
      account.trim().toLowerCase(),
      this.config.perAccount,
      'for this account',
    );
  }

  async purgeExpired(): Promise<void> {
    await this.repo.purgeBefore(this.now() - this.config.windowSeconds * 1000);
  }

  private async count(action: QuotaAction, kind: string, value: string, limit: number, whose: string) {
    const windowMs = this.config.windowSeconds * 1000;
    const now = this.now();
    const { hits, windowStart } = await this.repo.hit(sha256Hex(`${action}:${kind}:${value}`), now, windowMs);
    if (hits <= limit) return;
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    throw fail(
      'rate_limited',
      `Too many ${ACTIONS[action]} ${whose}. Try again in ${retryAfter} seconds.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
}

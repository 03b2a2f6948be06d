import type { Kysely } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';

/** Fixed-window hit counters, shared by every manager process through the database. */
export class QuotaRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /**
   * Counts one hit on `keyHash`: the first of a new window when the stored one began `windowMs` or
   * more ago. One statement, so concurrent hits are never lost.
   */
  async hit(keyHash: string, now: number, windowMs: number): Promise<{ hits: number; windowStart: number }> {
    const expired = now - windowMs;
    const row = await this.db
      .insertInto('quota_counters')
      .values({ key_hash: keyHash, window_start: now, hits: 1 })
      .onConflict((oc) =>
        oc.column('key_hash').doUpdateSet((eb) => {
          const stale = eb('quota_counters.window_start', '<=', expired);
          return {
            hits: eb
              .case()
              .when(stale)
              .then(1)
              .else(eb('quota_counters.hits', '+', 1))
              .end(),
            window_start: eb.case().when(stale).then(now).else(eb.ref('quota_counters.window_start')).end(),
          };
        }),
      )
      .returning(['hits', 'window_start'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), windowStart: Number(row.window_start) };
  }

  /** Forgets windows that began before `time`. */
  async purgeBefore(time: number): Promise<void> {
    await this.db.deleteFrom('quota_counters').where('window_start', '<', time).execute();
  }
}

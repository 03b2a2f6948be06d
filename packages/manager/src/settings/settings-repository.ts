import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ManagerDB, SettingsTable } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** `settings`: key-value rows, values as stored (sealed or JSON text where the service says so). */
export class SettingsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  all(): Promise<Selectable<SettingsTable>[]> {
    return this.db.selectFrom('settings').selectAll().execute();
  }

  async put(db: Db, key: string, value: string): Promise<void> {
    await db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

import type { CompiledQuery, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@app/server-kit';
import type { ApiKeysTable, ManagerDB } from '../db/schema.ts';
import { isAdminExpression } from '../users/users-repository.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

const KEY_HASH_SLOT = '\u0000key_hash';

/** The key and the active user a Bearer secret stands for. */
export interface KeyOwnerRow {
  id: string;
  uid_number: number;
  uid: string;
  is_admin: number;
}

/** `api_keys`: a user's keys, and the lookup of the key behind a secret's hash. */
export class ApiKeysRepository {
  /** Built once and run as a prepared statement: the per-request path of every Bearer call. */
  private readonly ownerLookup: CompiledQuery<KeyOwnerRow>;

  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly read: Database<ManagerDB>['read'],
  ) {
    this.ownerLookup = db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.uid_number', 'api_keys.uid_number')
      .select((eb) => ['api_keys.id', 'users.uid_number', 'users.uid', isAdminExpression(eb).as('is_admin')])
      .where('api_keys.key_hash', '=', KEY_HASH_SLOT)
      .where('users.status', '=', 'active')
      .compile();
  }

  async insert(row: Selectable<ApiKeysTable>, db: Db = this.db): Promise<void> {
    await db.insertInto('api_keys').values(row).execute();
  }

  listOf(uidNumber: number): Promise<Selectable<ApiKeysTable>[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('uid_number', '=', uidNumber)
      .orderBy('created_at', 'desc')
      .execute();
  }

  findOf(uidNumber: number, id: string): Promise<Selectable<ApiKeysTable> | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .where('uid_number', '=', uidNumber)
      .executeTakeFirst();
  }

  /** False when the user has no such key. */
  async deleteOf(uidNumber: number, id: string, db: Db = this.db): Promise<boolean> {
    const result = await db
      .deleteFrom('api_keys')
      .where('id', '=', id)
      .where('uid_number', '=', uidNumber)
      .executeTakeFirst();
    return Boolean(result.numDeletedRows);
  }

  async deleteAllOf(db: Db, uidNumber: number): Promise<void> {
    await db.deleteFrom('api_keys').where('uid_number', '=', uidNumber).execute();
  }

  async setLastUsed(id: string, lastUsedAt: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: lastUsedAt }).where('id', '=', id).execute();
  }

  /** The key with this hash and its user, when that user is active. */
  async ownerOf(keyHash: string): Promise<KeyOwnerRow | undefined> {
    const parameters = this.ownerLookup.parameters.map((value) =>
      value === KEY_HASH_SLOT ? keyHash : value,
    );
    const [row] = await this.read<KeyOwnerRow>({ ...this.ownerLookup, parameters });
    return row;
  }
}

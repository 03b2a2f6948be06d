import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AgentTokensTable, ManagerDB } from '../db/schema.ts';

export type AgentTokenRow = Selectable<AgentTokensTable>;
type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** Every query of `agent_tokens`. */
export class AgentTokensRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  async insert(row: AgentTokenRow, db: Db = this.db): Promise<void> {
    await db.insertInto('agent_tokens').values(row).execute();
  }

  listOfSite(siteId: number): Promise<AgentTokenRow[]> {
    return this.db
      .selectFrom('agent_tokens')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** True when the site had this token. */
  async delete(siteId: number, id: string, db: Db = this.db): Promise<boolean> {
    const result = await db
      .deleteFrom('agent_tokens')
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  byHash(tokenHash: string): Promise<Pick<AgentTokenRow, 'id' | 'site_id'> | undefined> {
    return this.db
      .selectFrom('agent_tokens')
      .select(['id', 'site_id'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('agent_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}

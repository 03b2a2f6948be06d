import { sql, type Kysely } from 'kysely';
import type { PgListener } from '@app/server-kit';
import type { ManagerDB } from './schema.ts';

/**
 * Subscribes to `channel`, on which triggers send their table's schema as payload (migrations 006 and
 * 022): `onChange` for those of this process's schema (test files share one database, a schema each),
 * and after a reconnect, when a notification may have been missed.
 */
export function onSchemaNotification(
  db: Kysely<ManagerDB>,
  listener: PgListener,
  channel: string,
  onChange: () => void,
): void {
  let schema: string | undefined;
  sql<{ schema: string }>`select current_schema() as schema`.execute(db).then(
    (result) => (schema = result.rows[0]?.schema),
    () => undefined,
  );
  listener.on(channel, {
    onMessage: (payload) => {
      if (schema === undefined || payload === schema) onChange();
    },
    onGap: onChange,
  });
}

import type { Kysely, Migration } from 'kysely';

/**
 * `containers.image_environment`: the environment the image brought (JSON object), as the node gave it
 * at create. On Proxmox VE it lives only inside the container's own `env`, so every reconfigure puts
 * the user's variables over it again. NULL where the provider keeps it itself (engine) and for rows
 * from before this migration (the first reconfigure works it out from the node and records it).
 * Plain `add column` of a nullable column: the same on SQLite and PostgreSQL.
 */
export const imageEnvironment: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('containers').addColumn('image_environment', 'text').execute();
  },
};

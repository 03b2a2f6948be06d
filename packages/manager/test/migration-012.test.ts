import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '@app/server-kit';
import { createTestDatabase, type TestDatabase } from '@app/server-kit/testing';
import { managerMigrations } from '../migrations/index.ts';

const NOW = '2025-01-01T00:00:00.000Z';

describe('migration 012 fills jobs.container_id from container payloads', () => {
  let database: TestDatabase;
  let opened: Database<any>;

  beforeAll(async () => {
    database = await createTestDatabase();
    opened = openDatabase<any>({
      url: database.url,
      dataDir: database.dataDir,
      fileName: 'manager.db',
      ...(database.schema ? { schema: database.schema } : {}),
    });
    const before: typeof managerMigrations = (dialect) =>
      Object.fromEntries(Object.entries(managerMigrations(dialect)).filter(([name]) => name < '012'));
    await migrate(opened, before, 'manager');
    const payloads = [
      '{"containerId":7}',
      '{"containerId":12,"restart":true}',
      '{}',
      '{"siteId":3,"containerId":9}',
      '{"containerId":"x"}',
    ];
    await opened.db
      .insertInto('jobs')
      .values(
        payloads.map((payload) => ({
          command: 'container.apply',
          status: 'success',
          created_by_uid_number: 2000,
          payload,
          attempts: 1,
          created_at: NOW,
          updated_at: NOW,
        })),
      )
      .execute();
    await migrate(opened, managerMigrations, 'manager');
  });
  afterAll(async () => {
    await opened?.close();
    await database?.drop();
  });

  it('reads the leading containerId and leaves every other payload NULL', async () => {
    const rows = await opened.db
      .selectFrom('jobs')
      .select(['payload', 'container_id'])
      .orderBy('id')
      .execute();
    expect(rows.map((row: { container_id: number | null }) => row.container_id)).toEqual([
      7,
      12,
      null,
      null,
      null,
    ]);
  });
});

import type { MigrationSet } from '@app/server-kit';
import { identity } from './001_identity.ts';

export const managerMigrations: MigrationSet = () => ({
  '001_identity': identity,
});

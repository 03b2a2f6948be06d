import type { MigrationSet } from '@app/server-kit';
import { initial } from './001_initial.ts';

export const translatorMigrations: MigrationSet = (dialect) => ({
  '001_initial': initial(dialect),
});

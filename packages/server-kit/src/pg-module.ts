import { createRequire } from 'node:module';
import type pg from 'pg';

/** The PostgreSQL driver, loaded only by a process that opens a PostgreSQL database (not on SQLite). */
export const loadPg = (): typeof pg => createRequire(import.meta.url)('pg');

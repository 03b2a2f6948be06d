import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { ConfigError } from './config.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: DialectName;
  /** The PostgreSQL schema given in the options (the search_path), if any. */
  schema?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`, `sqlite:<path>`, or undefined for `<dataDir>/<fileName>`. */
  url?: string | undefined;
  dataDir: string;
  fileName: string;
  /** PostgreSQL schema to use as search_path (tests give each file its own). */
  schema?: string;
  /** Name of the variable the URL came from, for error messages. */
  variable?: string;
  poolSize?: number;
}

const INT8_OID = 20;

export function openDatabase<DB>(options: DatabaseOptions): Database<DB> {
  const { url } = options;
  if (url?.startsWith('postgres://') || url?.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
      },
    });
    return wrap<DB>(new PostgresDialect({ pool }), 'postgres', options.schema);
  }
  if (url !== undefined && !url.startsWith('sqlite:')) {
    throw new ConfigError(options.variable ?? 'DATABASE_URL', 'expected postgres://… or sqlite:<path>');
  }
  const file = url ? url.slice('sqlite:'.length) : resolve(options.dataDir, options.fileName);
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return wrap<DB>(new SqliteDialect({ database: sqlite }), 'sqlite');
}

function wrap<DB>(dialect: Dialect, name: DialectName, schema?: string): Database<DB> {
  const db = new Kysely<DB>({ dialect });
  return { db, dialect: name, ...(schema ? { schema } : {}), close: () => db.destroy() };
}

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import { createHash } from 'node:crypto';
import { ConfigError } from './config.ts';
import { DatabaseUnavailableError } from './errors.ts';
import { loadPg } from './pg-module.ts';
import { reportingOutages } from './pg-outage.ts';
import { withCachedStatements } from './sqlite-statements.ts';
import { SQLite } from './sqlite-driver.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: DialectName;
  /** PostgreSQL schema in use when it is not the default search path. */
  schema?: string;
  /**
   * Runs a read-only query built once with Kysely, as a cached prepared statement (on SQLite over a
   * separate read-only connection, which sees committed data only). For per-request hot paths,
   * where building and preparing the query would cost more than running it.
   */
  read<R>(query: CompiledQuery<R>): Promise<R[]>;
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

export const isPostgresUrl = (url: string | undefined) =>
  url?.startsWith('postgres://') === true || url?.startsWith('postgresql://') === true;

/** The SQLite file a non-PostgreSQL configuration names: `sqlite:<path>`, else `<dataDir>/<fileName>`. */
export function sqliteFile(options: DatabaseOptions): string {
  const { url } = options;
  if (url !== undefined && !url.startsWith('sqlite:')) {
    throw new ConfigError(options.variable ?? 'DATABASE_URL', 'expected postgres://… or sqlite:<path>');
  }
  return url ? url.slice('sqlite:'.length) : resolve(options.dataDir, options.fileName);
}

export function openDatabase<DB>(options: DatabaseOptions): Database<DB> {
  const { url } = options;
  if (isPostgresUrl(url)) {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
      },
    });
    // An idle connection the server closed (a restart): the pool drops it and the next query reports the
    // outage to its caller. Without a listener the pool's 'error' event would end the process.
    pool.on('error', () => undefined);
    // Likewise for a connection the server ends while it is checked out between two queries: the next
    // query on it fails and says so; the event itself must not end the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    // A refused or lost connection is told apart from a wrong query, so callers answer 503, not 500.
    const connect = async () => {
      try {
        return reportingOutages(await pool.connect());
      } catch (error) {
        throw new DatabaseUnavailableError(error);
      }
    };
    const read = async <R>(query: CompiledQuery<R>) => {
      const name = `q_${createHash('sha1').update(query.sql).digest('hex').slice(0, 16)}`;
      const client = await connect();
      let failed = false;
      try {
        const result = await client.query({ name, text: query.sql, values: [...query.parameters] });
        return result.rows as R[];
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        // A connection that failed a query may be broken: the pool replaces it.
        client.release(failed);
      }
    };
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: { connect, end: () => pool.end() } }),
    });
    return {
      db,
      dialect: 'postgres',
      ...(options.schema ? { schema: options.schema } : {}),
      read,
      close: () => db.destroy(),
    };
  }
  const file = sqliteFile(options);
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withCachedStatements(sqlite) }) });
  let reader: BetterSqlite3.Database | undefined;
  const statements = new Map<string, BetterSqlite3.Statement>();
  const read = async <R>(query: CompiledQuery<R>) => {
    reader ??= file === ':memory:' ? sqlite : new SQLite(file, { readonly: true, fileMustExist: true });
    let statement = statements.get(query.sql);
    if (!statement) {
      statement = reader.prepare(query.sql);
      statements.set(query.sql, statement);
    }
    return statement.all(...(query.parameters as unknown[])) as R[];
  };
  return {
    db,
    dialect: 'sqlite',
    read,
    close: async () => {
      if (reader && reader !== sqlite) reader.close();
      await db.destroy();
    },
  };
}

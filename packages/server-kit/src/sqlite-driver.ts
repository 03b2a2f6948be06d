import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver for the Node.js that runs us. better-sqlite3 12 wraps its statements in
 * `node::ObjectWrap`, whose destructor aborts the process (`RemoveEnvironmentCleanupHook: (env) !=
 * nullptr`) when a statement is collected outside a JavaScript context on Node.js 24.19 and later;
 * better-sqlite3 13 uses Node-API and has no such destructor, but needs Node.js 22. Both are installed
 * (13 under the alias `better-sqlite3-node22`, whose prebuilt binaries come in the package), and the
 * same API is used either way.
 */
const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

export const SQLite: typeof BetterSqlite3 =
  nodeMajor >= 22 ? require('better-sqlite3-node22') : require('better-sqlite3');
export type SQLiteDatabase = BetterSqlite3.Database;

import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createHttpServer, isDatabaseUnavailable, openDatabase, type Database } from '../src/index.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../src/testing/private-postgres.ts';
import { freePort } from '../src/testing/service-process.ts';

/** A loopback TCP proxy to PostgreSQL that can reset every connection through it (a dropped network). */
async function resettingProxy(target: URL) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      // PostgreSQL refused or went: so does the proxy's client, as it would have seen directly.
      socket.on('close', () => {
        sockets.delete(socket);
        other.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    /** Resets the connections towards the clients: they read ECONNRESET. */
    reset: () => sockets.forEach((socket) => socket.resetAndDestroy()),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The error `work` rejects with (it must reject). */
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

/**
 * Errors node-postgres and Kysely raise when PostgreSQL goes away mid-query or mid-transaction, taken
 * from a cluster of the test's own that it stops and whose connections it resets: each must be told
 * apart as the database being unavailable (a 503), and no error of a wrong query or of another socket
 * may be. It brings its own PostgreSQL, so it runs in the default pass only.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('database errors while PostgreSQL goes away', () => {
  let postgres: PrivatePostgres;
  let proxy: Awaited<ReturnType<typeof resettingProxy>>;
  /** Through the proxy. */
  let database: Database<any>;
  /** Straight to PostgreSQL, whose resets then reach node-postgres itself. */
  let direct: Database<any>;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    proxy = await resettingProxy(new URL(postgres.url));
    database = openDatabase({ url: proxy.url, dataDir: '/nonexistent', fileName: 'unused.db' });
    direct = openDatabase({ url: postgres.url, dataDir: '/nonexistent', fileName: 'unused.db' });
    await sql`create table things (name text primary key)`.execute(database.db);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await direct?.close();
    await proxy?.close();
    await postgres?.destroy();
  });

  /** Work in flight on the server until it goes (a query, a transaction, a prepared read): its errors. */
  const longWork = ({ db, read }: Database<any>, name: string) =>
    Object.values({
      query: sql`select pg_sleep(10)`.execute(db),
      transaction: db.transaction().execute(async (trx) => {
        await sql`insert into things values (${name})`.execute(trx);
        await sql`select pg_sleep(10)`.execute(trx);
      }),
      read: read(sql`select pg_sleep(10)`.compile(db)),
    }).map(failureOf);

  it('a query, transaction or read cut off by a reset connection fails as unavailable: 503', async () => {
    const app = createHttpServer({ logLevel: 'silent', trustProxy: [] });
    app.post('/things', async () => {
      await database.db.transaction().execute(async (trx) => {
        await sql`insert into things values ('over http')`.execute(trx);
        await sql`select pg_sleep(10)`.execute(trx);
      });
      return { data: true };
    });
    const answer = app.inject({ method: 'POST', url: '/things' });
    const work = longWork(database, 'reset');
    await pause(500);
    proxy.reset();
    const errors = await Promise.all(work);
    for (const error of errors) expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    // What pg reports here is the socket's own error, with no SQLSTATE.
    expect(errors.map((error) => (error as { cause?: { code?: string } }).cause?.code)).toContain(
      'ECONNRESET',
    );
    const response = await answer;
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('service_unavailable');
    await app.close();
    // The pool replaced the broken connections.
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });

  it('everything in flight or sent while PostgreSQL stops fails as unavailable; then it works again', async () => {
    const work = longWork(direct, 'stop');
    // Writes one after another on six connections, as a busy service sends them while the server stops.
    let writing = true;
    let next = 0;
    const failed: unknown[] = [];
    const writer = async () => {
      while (writing) {
        const name = `write ${next++}`;
        await direct.db
          .transaction()
          .execute(async (trx) => {
            await sql`insert into things values (${name})`.execute(trx);
            await sql`update things set name = name where name = ${name}`.execute(trx);
          })
          .catch((error: unknown) => failed.push(error));
      }
    };
    const writers = Array.from({ length: 6 }, writer);
    // A transaction that holds its connection across the stop, then goes on (its ROLLBACK fails too).
    let stopped!: () => void;
    const down = new Promise<void>((resolve) => (stopped = resolve));
    const held = failureOf(
      direct.db.transaction().execute(async (trx) => {
        await sql`insert into things values ('held')`.execute(trx);
        await down;
        await sql`insert into things values ('after the stop')`.execute(trx);
      }),
    );
    await pause(500);
    await postgres.stop();
    stopped();
    await pause(300);
    writing = false;
    await Promise.all(writers);
    const errors = [
      ...(await Promise.all([...work, held])),
      ...failed,
      await failureOf(sql`select 1`.execute(direct.db)),
    ];
    expect(errors.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
    await postgres.start();
    expect((await sql<{ one: number }>`select 1 as one`.execute(direct.db)).rows).toEqual([{ one: 1 }]);
  }, 60_000);

  it('wrong queries, and other sockets, are not an outage; a wrapped outage is', async () => {
    await sql`insert into things values ('taken')`.execute(database.db);
    const wrong = await Promise.all(
      [
        sql`insert into things values ('taken')`.execute(database.db),
        sql`select * from nowhere`.execute(database.db),
        sql`selec 1`.execute(database.db),
        sql`select ${'not a number'}::int`.execute(database.db),
        database.db.transaction().execute(async (trx) => {
          await sql`insert into things values ('taken')`.execute(trx);
        }),
      ].map(failureOf),
    );
    for (const error of wrong) expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    // Another socket's refusal (an outbound call's) says nothing about the database; the database's does.
    const closed = new URL(postgres.url);
    closed.port = String(await freePort());
    const outbound = await failureOf(fetch(`http://127.0.0.1:${closed.port}/`));
    expect((outbound as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(outbound)).toBe(false);
    const unreachable = openDatabase({
      url: closed.toString(),
      dataDir: '/nonexistent',
      fileName: 'unused.db',
    });
    const gone = await failureOf(sql`select 1`.execute(unreachable.db));
    await unreachable.close();
    expect(isDatabaseUnavailable(gone)).toBe(true);
    expect(isDatabaseUnavailable(new Error('saving the phrase failed', { cause: gone }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([gone, gone]))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([gone, wrong[0]]))).toBe(false);
  });
});

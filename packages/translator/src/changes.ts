import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { pgChannelName, type DialectName } from '@app/server-kit';
import type { TranslatorDB } from './db/schema.ts';

/** What other processes may have cached about a project: its keys and settings, or what it delivers. */
export type ChangeKind = 'keys' | 'data';

type Handler = (projectId: number | undefined) => void;

/** What a service that caches or announces needs of the changes: subscribing and announcing. */
export type ChangeFeed = Pick<ProjectChanges, 'on' | 'announce'>;

/**
 * Announces changes to the caches of every translator process: applied here at once, and on PostgreSQL
 * sent with NOTIFY (payload `<process>:<kind>:<project>`) to the other processes, whose LISTEN connection
 * (PgListener, see app.ts) hands them to `heard`. A process ignores its own notices. After a gap in
 * listening (a reconnect), every cache is dropped: the notices sent meanwhile are lost.
 */
export class ProjectChanges {
  private readonly origin = randomUUID().slice(0, 8);
  private readonly handlers: Record<ChangeKind, Handler[]> = { keys: [], data: [] };
  readonly channel: string;

  constructor(
    private readonly db: Kysely<TranslatorDB>,
    private readonly dialect: DialectName,
    schema: string | undefined,
    private readonly log: FastifyBaseLogger,
  ) {
    this.channel = pgChannelName('translator_changes', schema);
  }

  /** `handler(projectId)` on every change of that kind; `handler(undefined)` after a gap (drop everything). */
  on(kind: ChangeKind, handler: Handler) {
    this.handlers[kind].push(handler);
  }

  /**
   * Applies a change here and tells the other processes. The promise (which never rejects) settles once
   * the notice is sent; a process about to exit waits for it, others need not.
   */
  announce(kind: ChangeKind, projectId: number): Promise<void> {
    this.apply(kind, projectId);
    if (this.dialect !== 'postgres') return Promise.resolve();
    return sql`select pg_notify(${this.channel}, ${`${this.origin}:${kind}:${projectId}`})`
      .execute(this.db)
      .then(
        () => undefined,
        (error: unknown) => this.log.warn({ err: error }, 'could not announce a change to other processes'),
      );
  }

  /** A notice from the LISTEN connection. */
  heard(payload: string) {
    const [origin, kind, id] = payload.split(':');
    if (origin === this.origin || (kind !== 'keys' && kind !== 'data')) return;
    const projectId = Number(id);
    if (Number.isInteger(projectId)) this.apply(kind, projectId);
  }

  gap() {
    for (const handler of [...this.handlers.keys, ...this.handlers.data]) handler(undefined);
  }

  private apply(kind: ChangeKind, projectId: number) {
    for (const handler of this.handlers[kind]) handler(projectId);
  }
}

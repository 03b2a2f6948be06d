import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { fail } from '../errors/catalogue.ts';
import type { NodesService } from '../nodes/nodes-service.ts';
import { NODE_FAILURE_FOR_USERS } from '../nodes/node-visibility.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import {
  NodeUnreachableError,
  ProviderError,
  type LogLine,
  type LogOptions,
  type LogStream,
} from '../providers/types.ts';
import type { ContainersService } from './containers-service.ts';

export type StreamChoice = LogStream | 'both';

export interface LogQuery {
  since?: Date | undefined;
  until?: Date | undefined;
  stream: StreamChoice;
  /** Lines read from the end of the log (before `stream` and `search`); at most, and by default, the bound. */
  tail?: number | undefined;
  /** Keeps the lines containing this text (ignoring case). */
  search?: string | undefined;
}

export interface LogPage {
  lines: LogLine[];
  /** The node had more lines than one answer holds: these are the last ones read. */
  truncated: boolean;
}

/** An opened log: its lines, and the controller that stops reading them. */
export interface OpenedLog {
  lines: AsyncIterable<LogLine>;
  abort: AbortController;
}

const STREAMS: Record<StreamChoice, ReadonlySet<LogStream>> = {
  stdout: new Set(['stdout']),
  stderr: new Set(['stderr']),
  both: new Set(['stdout', 'stderr']),
};

/** Whether a line contains `search`, ignoring case (every line does when there is none). */
function matcher(search: string | undefined): (line: LogLine) => boolean {
  const needle = search?.toLowerCase();
  return (line) => !needle || line.text.toLowerCase().includes(needle);
}

async function* matching(lines: AsyncIterable<LogLine>, search: string | undefined) {
  const matches = matcher(search);
  for await (const line of lines) if (matches(line)) yield line;
}

/** A container's output as its node keeps it: read at once, or followed (see LogFollows). */
export class ContainerLogs {
  constructor(
    private readonly containers: ContainersService,
    private readonly nodes: NodesService,
    private readonly providers: ProviderRegistry,
    private readonly log: FastifyBaseLogger,
    private readonly options: { linesMax: number; readTimeoutMs: number },
  ) {}

  /** The last lines of the query's window, at most `linesMax`. */
  async read(principal: Principal, siteId: number, id: number, query: LogQuery): Promise<LogPage> {
    const tail = Math.min(query.tail ?? this.options.linesMax, this.options.linesMax);
    const opened = await this.open(principal, siteId, id, query, { follow: false, tail });
    const timer = setTimeout(
      () => opened.abort.abort(new NodeUnreachableError('the node took too long to send the log')),
      this.options.readTimeoutMs,
    );
    const matches = matcher(query.search);
    try {
      let read = 0;
      const lines: LogLine[] = [];
      for await (const line of opened.lines) {
        read += 1;
        if (matches(line)) lines.push(line);
      }
      return { lines, truncated: read >= this.options.linesMax };
    } catch (error) {
      throw this.nodeFailure(principal, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The query's lines, then new ones as the node writes them, until `abort` or the node ends them. */
  async follow(principal: Principal, siteId: number, id: number, query: LogQuery): Promise<OpenedLog> {
    const tail = query.tail === undefined ? undefined : Math.min(query.tail, this.options.linesMax);
    const opened = await this.open(principal, siteId, id, query, {
      follow: true,
      // Without a start, following begins with the last lines, not the whole history.
      tail: tail ?? (query.since ? undefined : Math.min(100, this.options.linesMax)),
    });
    return { lines: matching(opened.lines, query.search), abort: opened.abort };
  }

  /** What a follower is told when reading fails half-way. */
  failureText(principal: Principal, error: unknown): string {
    const failure = this.nodeFailure(principal, error);
    if (failure instanceof Error && failure !== error) return failure.message;
    this.log.error({ err: error }, 'following container logs failed');
    return 'Reading the log failed.';
  }

  private async open(
    principal: Principal,
    siteId: number,
    id: number,
    query: LogQuery,
    how: Pick<LogOptions, 'follow' | 'tail'>,
  ): Promise<OpenedLog> {
    if (query.since && query.until && query.until < query.since)
      throw fail('invalid_request', 'until must not be before since.');
    const record = await this.containers.record(principal, siteId, id, 'read');
    if (!record.containerId) throw fail('no_instance');
    const node = await this.nodes.connectionById(record.nodeId);
    const abort = new AbortController();
    const options: LogOptions = {
      ...how,
      since: query.since,
      until: query.until,
      streams: STREAMS[query.stream],
    };
    try {
      const lines = await this.providers.for(node).logs(node, record.containerId, options, abort.signal);
      return { lines, abort };
    } catch (error) {
      abort.abort();
      throw this.nodeFailure(principal, error);
    }
  }

  /** node_unreachable or provider_error; what the node said is for administrators (and the log). */
  private nodeFailure(principal: Principal, error: unknown) {
    if (!(error instanceof ProviderError)) return error;
    this.log.info({ detail: error.message }, 'container logs not read');
    const code = error instanceof NodeUnreachableError ? 'node_unreachable' : 'provider_error';
    return fail(code, principal.isAdmin ? error.message : NODE_FAILURE_FOR_USERS);
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger that makes its pino child (which serialises the request-id binding) only when the
 * request writes a line: most requests write none (routine reads are sampled, see RequestLog), and a
 * child made per request for nothing is a measurable part of answering one.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...line: unknown[]) {
    this.write('fatal', line);
  }
  error(...line: unknown[]) {
    this.write('error', line);
  }
  warn(...line: unknown[]) {
    this.write('warn', line);
  }
  info(...line: unknown[]) {
    this.write('info', line);
  }
  debug(...line: unknown[]) {
    this.write('debug', line);
  }
  trace(...line: unknown[]) {
    this.write('trace', line);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  private write(level: Level, line: unknown[]) {
    (this.logger[level] as (...line: unknown[]) => void)(...line);
  }
}

/** Fastify's `childLoggerFactory`: a request's logger, made lazily (see LazyChildLogger). */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}

import type { FastifyBaseLogger } from 'fastify';

type Closer = () => Promise<unknown>;

/**
 * On SIGTERM or SIGINT, runs the closers in order (stop accepting and finish in-flight requests first,
 * then workers, then the database) and exits. A second signal exits at once.
 */
export function closeOnSignals(logger: FastifyBaseLogger, closers: Closer[], timeoutMs = 25_000) {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    (async () => {
      for (const close of closers) await close();
    })().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

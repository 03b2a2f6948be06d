import type { FastifyBaseLogger } from 'fastify';

const DRAIN_LIMIT_MS = 10_000;

/**
 * Work an answer does not wait for (the password-reset mail, so the answer takes the same time
 * whether or not the account exists). Failures are logged; close() waits a bounded time for what runs.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(what: string, work: () => Promise<void>): void {
    const task: Promise<void> = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error }, `${what} failed`))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async drain(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_LIMIT_MS)));
    await Promise.race([Promise.all(this.running), limit]);
    clearTimeout(timer);
  }
}

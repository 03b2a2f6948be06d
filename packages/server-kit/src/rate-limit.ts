import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export interface RateLimitOptions {
  failures: number;
  windowSeconds: number;
  blockSeconds: number;
}

interface Counter {
  windowStart: number;
  failures: number;
  blockedUntil: number;
}

/**
 * Blocks a client address with 429 for `blockSeconds` once it has caused `failures` 4xx/5xx answers
 * (but 503, the server's own outage) within `windowSeconds`. Successful requests cost one map lookup.
 * Counters live in process memory. The HTTP server calls it from its own request hooks (see
 * createHttpServer's `rateLimit`), so it costs no hook of its own; installRateLimit adds it later instead.
 */
export class RateLimit {
  private readonly counters = new Map<string, Counter>();
  private readonly windowMs: number;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now = () => Date.now(),
  ) {
    this.windowMs = options.windowSeconds * 1000;
    this.sweep = setInterval(() => this.forgetStale(), this.windowMs);
    this.sweep.unref();
  }

  /** The 429 to answer a blocked address with, or undefined. */
  refusal(request: FastifyRequest): AppError | undefined {
    const counter = this.counters.get(request.ip);
    if (!counter || counter.blockedUntil <= this.now()) return undefined;
    const retryAfter = Math.ceil((counter.blockedUntil - this.now()) / 1000);
    return new AppError(
      429,
      'rate_limited',
      `Too many failed requests from your address. Try again in ${retryAfter} seconds.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }

  /** Counts the answer against its address when it is a failure the client caused. */
  answered(request: FastifyRequest, status: number) {
    // 503 is our outage, not the client's failure: it must not get everyone blocked afterwards.
    if (status >= 400 && status !== 429 && status !== 503) this.countFailure(request);
  }

  close() {
    clearInterval(this.sweep);
  }

  private countFailure(request: FastifyRequest) {
    const time = this.now();
    let counter = this.counters.get(request.ip);
    if (!counter || counter.windowStart + this.windowMs < time) {
      counter = { windowStart: time, failures: 0, blockedUntil: 0 };
      this.counters.set(request.ip, counter);
    }
    counter.failures += 1;
    if (counter.failures >= this.options.failures) {
      counter.blockedUntil = time + this.options.blockSeconds * 1000;
      counter.failures = 0;
      counter.windowStart = time;
      request.log.warn({ address: request.ip }, 'client address blocked after repeated failures');
    }
  }

  private forgetStale() {
    const time = this.now();
    for (const [address, counter] of this.counters) {
      if (counter.blockedUntil < time && counter.windowStart + this.windowMs < time)
        this.counters.delete(address);
    }
  }
}

/**
 * A rate limit whose check runs after the onRequest hooks added before it (the translator's CORS
 * headers, which a browser needs to read the 429), at the cost of two hooks of its own.
 */
export function installRateLimit(app: FastifyInstance, options: RateLimitOptions) {
  const limit = new RateLimit(options);
  app.addHook('onClose', (_instance, done) => (limit.close(), done()));
  app.addHook('onRequest', (request, _reply, done) => done(limit.refusal(request)));
  app.addHook('onResponse', (request, reply, done) => (limit.answered(request, reply.statusCode), done()));
}

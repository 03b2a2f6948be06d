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
 * (but 503, the server's own outage)
 * within `windowSeconds`. Successful requests cost one map lookup. Counters live in process memory.
 */
export function installRateLimit(app: FastifyInstance, options: RateLimitOptions, now = () => Date.now()) {
  const counters = new Map<string, Counter>();
  const windowMs = options.windowSeconds * 1000;

  const sweep = setInterval(() => {
    const time = now();
    for (const [address, counter] of counters) {
      if (counter.blockedUntil < time && counter.windowStart + windowMs < time) counters.delete(address);
    }
  }, windowMs);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  // Callback hooks: they run on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    const counter = counters.get(request.ip);
    if (!counter || counter.blockedUntil <= now()) return done();
    const retryAfter = Math.ceil((counter.blockedUntil - now()) / 1000);
    done(
      new AppError(
        429,
        'rate_limited',
        `Too many failed requests from your address. Try again in ${retryAfter} seconds.`,
        undefined,
        { 'retry-after': String(retryAfter) },
      ),
    );
  });

  const countFailure = (request: FastifyRequest) => {
    const time = now();
    let counter = counters.get(request.ip);
    if (!counter || counter.windowStart + windowMs < time) {
      counter = { windowStart: time, failures: 0, blockedUntil: 0 };
      counters.set(request.ip, counter);
    }
    counter.failures += 1;
    if (counter.failures >= options.failures) {
      counter.blockedUntil = time + options.blockSeconds * 1000;
      counter.failures = 0;
      counter.windowStart = time;
      request.log.warn({ address: request.ip }, 'client address blocked after repeated failures');
    }
  };
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    // 503 is our outage, not the client's failure: it must not get everyone blocked afterwards.
    if (status >= 400 && status !== 429 && status !== 503) countFailure(request);
    done();
  });
}

import { JobEvents, JobHandlers, JobStreams, JobWorker, type JobStatus } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import { fail } from '../errors/catalogue.ts';
import type { AiJobStatus } from '../db/schema.ts';
import { AiJobsRepository, TRANSLATE } from './ai-jobs-repository.ts';
import { TranslateJob, type TranslateJobDeps } from './translate-job.ts';

/** An AI job has no time limit of its own: each provider call has one (requestTimeoutMs). */
const NO_LIMIT_MS = 7 * 24 * 3600_000;

const API_STATUS: Record<JobStatus, AiJobStatus> = {
  pending: 'pending',
  running: 'running',
  success: 'completed',
  failure: 'failed',
  cancelled: 'cancelled',
};

/**
 * AI jobs on the shared job engine: their repository (the engine's store), the worker of this process (several processes share the work through
 * the store's leases; the poll finds the jobs of other processes), the event bus its progress goes
 * through, and the progress streams (`GET /api/ai-jobs/{jobId}/events`). The bus re-reads watched jobs
 * on both dialects, so a stream hears a job run by another process too.
 */
export function createAiEngine(
  ctx: TranslatorContext,
  deps: Omit<TranslateJobDeps, 'ctx' | 'jobs'>,
  pollMs = 1000,
) {
  const { ai } = ctx.config;
  const events = new JobEvents<string>({ dialect: ctx.dialect, log: ctx.log, parseId: String });
  const jobs = new AiJobsRepository(ctx.db, ai.jobsPerProject, events);
  events.bind(jobs);
  const handlers = new JobHandlers<string>();
  handlers.register(TRANSLATE, new TranslateJob({ ...deps, ctx, jobs }));
  const worker = new JobWorker(
    jobs,
    events,
    handlers,
    {
      concurrency: ai.jobsPerProcess,
      leaseMs: ai.leaseMs,
      // Three renewals per lease, so a provider call longer than the lease never lets the job go.
      heartbeatMs: Math.max(50, Math.floor(ai.leaseMs / 3)),
      pollMs,
      defaultTimeoutMs: NO_LIMIT_MS,
      // A run resumes from the pending items, so a job may be taken over any number of times.
      maxAttempts: Number.POSITIVE_INFINITY,
    },
    ctx.log,
    {
      jobFinished(_command, outcome, seconds) {
        if (outcome === 'cancelled') return;
        ctx.metrics.aiJobFinished(outcome === 'success' ? 'completed' : 'failed', seconds);
      },
    },
  );
  const streams = new JobStreams<string>(jobs, events, {
    keepAliveMs: 15_000,
    maxBufferedBytes: 1024 * 1024,
    maxPerUser: 20,
    maxTotal: 2000,
    tooMany: (message) => fail('too_many_streams', message, undefined, { 'retry-after': '5' }),
    statusLabel: (status) => API_STATUS[status],
  });
  return { jobs, worker, events, streams };
}

export type AiEngine = ReturnType<typeof createAiEngine>;

import { JobEvents, JobHandlers, JobWorker } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import { AiJobsRepository, TRANSLATE } from './ai-jobs-repository.ts';
import { TranslateJob, type TranslateJobDeps } from './translate-job.ts';

/** An AI job has no time limit of its own: each provider call has one (requestTimeoutMs). */
const NO_LIMIT_MS = 7 * 24 * 3600_000;

/**
 * The job engine's worker for AI jobs in this process. Several processes share the work through the
 * store's leases; new jobs wake it through `wake` (the poll finds those of other processes).
 */
export function createAiWorker(
  ctx: TranslatorContext,
  deps: Omit<TranslateJobDeps, 'ctx' | 'jobs'>,
  pollMs = 1000,
): JobWorker<string> {
  const { ai } = ctx.config;
  const jobs = new AiJobsRepository(ctx.db, ai.jobsPerProject);
  const events = new JobEvents<string>({ dialect: ctx.dialect, log: ctx.log, parseId: String });
  events.bind(jobs, async () => {});
  const handlers = new JobHandlers<string>();
  handlers.register(TRANSLATE, new TranslateJob({ ...deps, ctx, jobs }));
  return new JobWorker(
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
        if (outcome !== 'cancelled')
          ctx.metrics.aiJobFinished(outcome === 'success' ? 'completed' : 'failed', seconds);
      },
    },
  );
}

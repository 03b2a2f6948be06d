import { ConfigError, type EnvReader } from '@app/server-kit';
import type { LaneShares } from './jobs/job-claims-repository.ts';

/** Settings of jobs, the worker, SSE streams and node providers. */
export interface FleetConfig {
  workerConcurrency: number;
  /** Commands run in containers (the exec lane): slots of each worker, and shares over all workers. */
  execSlots: number;
  execShares: LaneShares;
  jobLeaseMs: number;
  jobHeartbeatMs: number;
  jobPollMs: number;
  jobTimeoutMs: number;
  jobMaxAttempts: number;
  /** How long a stopping worker lets running jobs finish before aborting them. */
  jobShutdownGraceMs: number;
  sseKeepAliveMs: number;
  /** Open job streams per user and in all (per process). */
  sseMaxPerUser: number;
  sseMaxTotal: number;
  /** Followed container logs per user and in all (per process), and the most lines one answer holds. */
  logFollowsPerUser: number;
  logFollowsMax: number;
  logLinesMax: number;
  /** Bound on every call to a node (status, stats, storages); past it the node counts as unreachable. */
  nodeTimeoutMs: number;
  /** How long one batch status answer of a node is reused. */
  nodeStatusCacheMs: number;
  /** Pace of the simulated node's output. */
  dummyStepMs: number;
  /** Between two metrics sampling rounds; 0 turns sampling off. */
  metricsIntervalMs: number;
  /** Hosts (`host` or `host:port`) an alert webhook may reach in a private network or by plain HTTP. */
  alertWebhookAllowlist: string[];
}

export function readFleetConfig(env: EnvReader): FleetConfig {
  const leaseMs = env.int('JOB_LEASE_S', 30, { min: 1 }) * 1000;
  const concurrency = env.int('JOB_CONCURRENCY', 4, { min: 1, max: 256 });
  return {
    workerConcurrency: concurrency,
    execSlots: execSlots(env, concurrency),
    execShares: {
      runningPerUser: env.int('JOB_EXEC_RUNNING_PER_USER', 2, { min: 1 }),
      runningPerContainer: env.int('JOB_EXEC_RUNNING_PER_CONTAINER', 1, { min: 1 }),
      queuedPerUser: env.int('JOB_EXEC_QUEUED_PER_USER', 20, { min: 1, max: 10_000 }),
      queuedPerContainer: env.int('JOB_EXEC_QUEUED_PER_CONTAINER', 10, { min: 1, max: 10_000 }),
    },
    jobLeaseMs: leaseMs,
    jobHeartbeatMs: env.int('JOB_HEARTBEAT_MS', Math.max(Math.floor(leaseMs / 3), 100), { min: 50 }),
    jobPollMs: env.int('JOB_POLL_MS', 2000, { min: 50 }),
    jobTimeoutMs: env.int('JOB_TIMEOUT_S', 1800, { min: 1 }) * 1000,
    jobMaxAttempts: env.int('JOB_MAX_ATTEMPTS', 3, { min: 1 }),
    jobShutdownGraceMs: env.int('JOB_SHUTDOWN_GRACE_MS', 10_000),
    sseKeepAliveMs: env.int('SSE_KEEPALIVE_S', 15, { min: 1 }) * 1000,
    sseMaxPerUser: env.int('JOB_STREAMS_PER_USER', 20, { min: 1 }),
    sseMaxTotal: env.int('JOB_STREAMS_MAX', 2000, { min: 1 }),
    logFollowsPerUser: env.int('CONTAINER_LOG_FOLLOWS_PER_USER', 5, { min: 1 }),
    logFollowsMax: env.int('CONTAINER_LOG_FOLLOWS_MAX', 500, { min: 1 }),
    logLinesMax: env.int('CONTAINER_LOG_LINES_MAX', 5000, { min: 1, max: 100_000 }),
    nodeTimeoutMs: env.int('NODE_TIMEOUT_MS', 5000, { min: 100 }),
    nodeStatusCacheMs: env.int('NODE_STATUS_CACHE_MS', 3000),
    dummyStepMs: env.int('DUMMY_STEP_MS', 400),
    metricsIntervalMs: env.int('METRICS_INTERVAL_S', 60, { min: 0, max: 3600 }) * 1000,
    alertWebhookAllowlist: env.hosts('ALERT_WEBHOOK_ALLOWLIST'),
  };
}

/**
 * Exec slots of one worker: one slot stays for creates, deletes and the other jobs (none can be kept
 * with JOB_CONCURRENCY 1).
 */
function execSlots(env: EnvReader, concurrency: number): number {
  const reserved = Math.max(concurrency - 1, 1);
  const slots = env.int('JOB_EXEC_SLOTS', reserved, { min: 1 });
  if (slots > reserved)
    throw new ConfigError(
      'JOB_EXEC_SLOTS',
      `must be at most ${reserved}: one of the JOB_CONCURRENCY (${concurrency}) slots stays for other jobs`,
    );
  return slots;
}

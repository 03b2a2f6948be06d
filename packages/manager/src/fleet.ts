import { sql } from 'kysely';
import { JobEvents, JobHandlers, JobStreams, JobWorker, PgListener } from '@app/server-kit';
import type { ManagerContext } from './context.ts';
import { SitesService } from './sites/sites-service.ts';
import type { AuditLog } from './audit/audit-log.ts';
import { SitesRepository } from './sites/sites-repository.ts';
import { NodesService } from './nodes/nodes-service.ts';
import { NodesRepository } from './nodes/nodes-repository.ts';
import { JobsRepository } from './jobs/jobs-repository.ts';
import { JobsService } from './jobs/jobs-service.ts';
import { ProviderRegistry } from './providers/registry.ts';
import { DummyProvider } from './providers/dummy/dummy-provider.ts';
import { DummyInstancesRepository } from './providers/dummy/dummy-instances-repository.ts';
import { ProxmoxProvider } from './providers/proxmox/proxmox-provider.ts';
import { EngineProvider } from './providers/engine/engine-provider.ts';
import { registerInstanceJobs } from './providers/provider-jobs.ts';
import { closeHttpAgents } from './providers/http.ts';
import { NodeImportService } from './nodes/node-import.ts';
import { ContainersRepository } from './containers/containers-repository.ts';
import { fail } from './errors/catalogue.ts';
import { MetricsRepository } from './metrics/metrics-repository.ts';
import { MetricsSampler } from './metrics/metrics-sampler.ts';
import { MetricsHistory } from './metrics/metrics-history.ts';
import { MetricsSchedule } from './metrics/metrics-schedule.ts';
import { EXEC_LANE } from './containers/container-jobs.ts';

export type ProcessRole = 'api' | 'worker' | 'all';

/** Sites, nodes, providers, jobs, the worker and job streams, wired once per process. */
/** `afterMetricsRound`: what runs after each stored sampling round (the alert rules). */
export function createFleetServices(
  ctx: ManagerContext,
  audit: AuditLog,
  afterMetricsRound: (at: number) => Promise<void>,
) {
  const { db, dialect, config, secrets, log } = ctx;
  const fleet = config.fleet;
  const pgListener =
    dialect === 'postgres'
      ? new PgListener({ databaseUrl: config.databaseUrl, schema: ctx.databaseSchema, log })
      : undefined;
  const jobEvents = new JobEvents({ dialect, listener: pgListener, log, parseId: Number });
  const jobsRepo = new JobsRepository(db, dialect, jobEvents, { [EXEC_LANE]: fleet.execShares });
  jobEvents.bind(jobsRepo, async (payload) => {
    await sql`select pg_notify(${jobEvents.channel}, ${payload})`.execute(db);
  });
  const sites = new SitesService(new SitesRepository(db), audit);
  const nodes = new NodesService(new NodesRepository(db), sites, secrets, audit);
  const callOptions = { timeoutMs: fleet.nodeTimeoutMs };
  const proxmox = new ProxmoxProvider(callOptions);
  const providers = new ProviderRegistry(
    {
      dummy: new DummyProvider(new DummyInstancesRepository(db), fleet.dummyStepMs),
      hypervisor: proxmox,
      engine: new EngineProvider(callOptions),
    },
    { timeoutMs: fleet.nodeTimeoutMs, statusCacheMs: fleet.nodeStatusCacheMs },
  );
  const jobHandlers = new JobHandlers();
  registerInstanceJobs(jobHandlers, nodes, providers);
  const worker = new JobWorker(
    jobsRepo,
    jobEvents,
    jobHandlers,
    {
      concurrency: fleet.workerConcurrency,
      leaseMs: fleet.jobLeaseMs,
      heartbeatMs: fleet.jobHeartbeatMs,
      pollMs: fleet.jobPollMs,
      defaultTimeoutMs: fleet.jobTimeoutMs,
      maxAttempts: fleet.jobMaxAttempts,
      lanes: { [EXEC_LANE]: fleet.execSlots },
    },
    log,
    ctx.metrics,
  );
  const jobStreams = new JobStreams(jobsRepo, jobEvents, {
    keepAliveMs: fleet.sseKeepAliveMs,
    maxBufferedBytes: 8 * 1024 * 1024,
    maxPerUser: fleet.sseMaxPerUser,
    maxTotal: fleet.sseMaxTotal,
    tooMany: (message) => fail('too_many_streams', message, undefined, { 'retry-after': '5' }),
  });

  const metricsRepo = new MetricsRepository(db);
  const metricsSampler = new MetricsSampler(
    metricsRepo,
    nodes,
    providers,
    {
      clock: Date.now,
      owner: worker.owner,
      intervalMs: fleet.metricsIntervalMs,
      afterRound: afterMetricsRound,
    },
    log,
  );
  const metricsHistory = new MetricsHistory(metricsRepo, Date.now);
  const metricsSchedule = new MetricsSchedule(metricsSampler, metricsHistory, fleet.metricsIntervalMs, log);

  return {
    sites,
    metricsSampler,
    metricsHistory,
    nodes,
    providers,
    jobs: new JobsService(jobsRepo, audit),
    jobEvents,
    /** PostgreSQL: the process's LISTEN connection, for every channel. */
    pgListener,
    jobHandlers,
    worker,
    jobStreams,
    nodeImport: new NodeImportService(
      db,
      sites,
      nodes,
      new ContainersRepository(db),
      proxmox,
      fleet.nodeTimeoutMs,
      audit,
    ),
    /** Starts the event bus and, unless this process only serves the API, the worker. */
    async startFleet(role: ProcessRole) {
      await pgListener?.start();
      jobEvents.start();
      if (role !== 'api') {
        worker.start();
        metricsSchedule.start();
      }
    },
    /** Stops the worker (running jobs get the grace period), the event bus and node connections. */
    async stopFleet() {
      metricsSchedule.stop();
      await worker.stop(fleet.jobShutdownGraceMs);
      jobStreams.closeAll();
      jobEvents.close();
      await pgListener?.close();
      await closeHttpAgents();
    },
  };
}

export type FleetServices = ReturnType<typeof createFleetServices>;

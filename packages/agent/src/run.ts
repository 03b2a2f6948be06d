import type { AgentConfig, ServicesConfig } from './config.ts';
import { applyService, type ApplyOutcome } from './apply/apply.ts';
import { dnsmasqService, nginxService, type ManagedService } from './apply/services.ts';
import { checkIn } from './checkin.ts';
import { REPORT_MESSAGE_MAX, type CheckinBody, type ServiceReport } from './snapshot.ts';
import { certificateReports, keepCertificates } from './acme/certificates.ts';
import { loadSnapshot, loadState, saveSnapshot, saveState, type AgentState } from './state.ts';
import { prepareVolumes, removeVolumes } from './volumes.ts';

export interface RunOutcome {
  /** False when the manager answered 304 (nothing to do). */
  changed: boolean;
  applied: Record<string, ApplyOutcome>;
}

export const managedServices = (config: ServicesConfig): ManagedService[] => [
  nginxService(config.nginx),
  dnsmasqService(config.dnsmasq),
];

async function report(
  config: AgentConfig,
  services: ManagedService[],
  state: AgentState,
): Promise<CheckinBody> {
  const entries = await Promise.all(
    services.map(async (service): Promise<[string, ServiceReport]> => {
      const error = state.lastApplyError?.[service.name];
      return [
        service.name,
        {
          state: await service.state(),
          lastApply: state.lastApply[service.name] ?? 'unknown',
          ...(error ? { message: error.slice(0, REPORT_MESSAGE_MAX) } : {}),
        },
      ];
    }),
  );
  return {
    siteId: config.siteId,
    hostname: config.hostname,
    currentTime: Math.floor(Date.now() / 1000),
    ipv4Address: config.ipv4Address,
    services: Object.fromEntries(entries),
    ...(state.volumes.length ? { volumes: state.volumes } : {}),
    ...(state.volumeRemovals?.length ? { volumeRemovals: state.volumeRemovals } : {}),
    certificates: await certificateReports(config.nginx.acmeDir),
  };
}

/**
 * One run: check in; on a new snapshot apply it service by service (each rolls back on its own),
 * prepare pending volumes and remove released ones, obtain or renew certificates, remember the ETag
 * and the results, and check in again to report them. A run with nothing new still keeps the last
 * snapshot's certificates.
 */
export async function runOnce(
  config: AgentConfig,
  services = managedServices(config),
  log = console,
): Promise<RunOutcome> {
  const state = await loadState(config.stateDirectory);
  const answer = await checkIn(config, state.etag, await report(config, services, state));
  if (answer.status === 304) {
    if (state.volumes.length || state.volumeRemovals?.length) {
      await saveState(config.stateDirectory, { ...state, volumes: [], volumeRemovals: [] });
    }
    const kept = await loadSnapshot(config.stateDirectory);
    const nginx = kept && (await keepCertificates(config, services, kept, log));
    return { changed: false, applied: nginx ? { nginx } : {} };
  }
  const applied: Record<string, ApplyOutcome> = {};
  for (const service of services) {
    applied[service.name] = await applyService(service, answer.snapshot);
    const outcome = applied[service.name]!;
    if (outcome.result === 'failure') log.error(`${service.name}: not applied: ${outcome.error}`);
    else if (outcome.changed.length) log.info(`${service.name}: applied ${outcome.changed.join(', ')}`);
  }
  const next: AgentState = {
    etag: answer.etag,
    lastApply: Object.fromEntries(Object.entries(applied).map(([name, outcome]) => [name, outcome.result])),
    lastApplyError: Object.fromEntries(
      Object.entries(applied).flatMap(([name, outcome]) => (outcome.error ? [[name, outcome.error]] : [])),
    ),
    volumes: await prepareVolumes(answer.snapshot.proxy.volumes),
    volumeRemovals: await removeVolumes(answer.snapshot.proxy.volumeRemovals ?? [], config.siteId),
  };
  await saveSnapshot(config.stateDirectory, answer.snapshot);
  await keepCertificates(config, services, answer.snapshot, log);
  await saveState(config.stateDirectory, next);
  const second = await checkIn(config, next.etag, await report(config, services, next));
  await saveState(config.stateDirectory, {
    ...next,
    volumes: [],
    volumeRemovals: [],
    etag: second.status === 200 ? second.etag : next.etag,
  });
  return { changed: true, applied };
}

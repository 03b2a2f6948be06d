import { badRequest, forbidden, retryOnConflict } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { ReconfigureSpec } from '../providers/types.ts';
import {
  flag,
  HTTP_TOGGLES,
  integer,
  type HttpToggles,
  type ServiceUpdateInput,
} from '../services/service-input.ts';
import type { ContainerService } from '../services/services-repository.ts';
import type { HttpName } from '../dns/cross-site-dns.ts';
import { ALLOCATED_COLUMNS } from './addresses.ts';
import { withInstance } from './container-access.ts';
import { CONTAINER_COMMANDS, type ContainerApplyPayload } from './container-jobs.ts';
import { blankToNull, mergeEnvironment, sameEnvironment, type EnvVar } from './container-rules.ts';
import { httpNamesOf, type ContainerDeps, type ContainersService } from './containers-service.ts';

export interface UpdateInput {
  username?: string | undefined;
  services?: Record<string, ServiceUpdateInput> | undefined;
  environmentVars?: EnvVar[] | undefined;
  entrypoint?: string | null | undefined;
  restart?: boolean | undefined;
}

export interface UpdateResult {
  containerId: number;
  jobId: number | null;
  dnsWarnings: string[];
  message: string;
}

interface ServicePlan {
  remove: number[];
  toggle: Array<{ httpServiceId: number; changes: Partial<HttpToggles> }>;
  add: ServiceUpdateInput[];
  addKeys: string[];
}

/** PUT …/containers/{id}: the spec's six rules. */
export class ContainerUpdates {
  constructor(
    private readonly deps: ContainerDeps,
    private readonly containers: ContainersService,
  ) {}

  async update(principal: Principal, siteId: number, id: number, input: UpdateInput): Promise<UpdateResult> {
    const { db, repo } = this.deps;
    const record = await this.containers.record(principal, siteId, id, 'manage');
    if (input.restart === true) withInstance(record, 'to restart');
    const restartOnly =
      input.restart === true &&
      input.username === undefined &&
      input.services === undefined &&
      input.environmentVars === undefined &&
      input.entrypoint === undefined;

    // Rule 6: only administrators reassign ownership.
    const owner = input.username?.trim() || undefined;
    let ownerUid: number | undefined;
    if (owner !== undefined && owner !== record.owner) {
      if (!principal.isAdmin) throw forbidden('Only administrators can give a container to another user.');
      ownerUid = await this.containers.ownerNumber(owner);
    }

    const current = await this.deps.services.forContainer(record.id);
    const plan = planServices(input.services ?? {}, current);
    const added = await this.containers.parseServices(
      Object.fromEntries(plan.add.map((entry, index) => [plan.addKeys[index]!, entry])),
    );
    const site = await this.deps.sites.get(siteId);
    await this.deps.httpNames.admit(principal, site, httpNamesOf(added));

    // Rules 2 and 3: full replacement of the environment and the entrypoint, unless restart-only.
    const environment = restartOnly
      ? record.environmentVars
      : mergeEnvironment((await this.deps.settings.get()).defaultContainerEnvVars, input.environmentVars);
    const entrypoint = restartOnly ? record.entrypoint : blankToNull(input.entrypoint);
    const configChanged =
      !sameEnvironment(environment, record.environmentVars) || entrypoint !== record.entrypoint;

    // Rules 4 and 5: a job when the instance must pick up a change or a restart was asked for. Changes
    // saved with `restart: false` wait, with the environment the instance still runs, for a restart.
    const pending = record.appliedEnvironment !== null;
    const running = record.appliedEnvironment ?? record.environmentVars;
    const restart =
      Boolean(record.containerId) && (input.restart === true || (configChanged && input.restart !== false));
    const deferred = Boolean(record.containerId) && !restart && (configChanged || pending);
    const reconfigure: ReconfigureSpec | undefined =
      restart && (configChanged || pending) ? { environment, entrypoint } : undefined;

    const jobId = await retryOnConflict(ALLOCATED_COLUMNS, () =>
      db.transaction().execute(async (trx) => {
        await repo.update(trx, record.id, {
          environment_vars: JSON.stringify(environment),
          entrypoint,
          applied_environment: deferred ? JSON.stringify(running) : null,
          ...(ownerUid !== undefined ? { owner_uid_number: ownerUid } : {}),
        });
        for (const serviceId of plan.remove) await this.deps.services.delete(trx, record.id, serviceId);
        for (const toggle of plan.toggle) {
          await this.deps.services.setToggles(trx, toggle.httpServiceId, toggle.changes);
        }
        for (const service of added) await this.deps.services.insert(trx, record.id, service);
        await this.deps.audit.within(
          trx,
          { type: 'container', id: record.id, containerId: record.id, siteId },
          restartOnly ? 'container.restart' : undefined,
        );
        if (!restart) return null;
        const payload: ContainerApplyPayload = {
          containerId: record.id,
          ...(reconfigure ? { reconfigure, previousEnvironment: running } : {}),
          restart: true,
        };
        return (await this.deps.jobs.insertIn(trx, CONTAINER_COMMANDS.apply, principal.uidNumber, payload))
          .id;
      }),
    );
    if (jobId !== null) await this.deps.jobs.announceNew(jobId);

    const removedNames = current
      .filter((service) => plan.remove.includes(service.id) && service.httpService)
      .map((service) => service.httpService as HttpName);
    const addedNames = httpNamesOf(added);
    const dnsWarnings = [
      ...(await this.deps.dns.remove(site, removedNames)),
      ...(await this.deps.dns.ensure(site, addedNames)),
    ];
    return {
      containerId: record.id,
      jobId,
      dnsWarnings,
      message: jobId
        ? restartOnly
          ? 'Container restart queued.'
          : 'Container updated; a restart was queued to apply the changes.'
        : deferred
          ? 'Container updated; the environment and entrypoint changes take effect at its next restart.'
          : 'Container updated.',
    };
  }
}

/** Splits ServiceUpdate entries into deletions, HTTP toggle changes and new services (rule 1). */
function planServices(entries: Record<string, ServiceUpdateInput>, current: ContainerService[]): ServicePlan {
  const plan: ServicePlan = { remove: [], toggle: [], add: [], addKeys: [] };
  for (const [key, entry] of Object.entries(entries)) {
    if (!entry || typeof entry !== 'object') {
      throw badRequest(`Service "${key}" must be an object.`, { [`services.${key}`]: 'must be an object' });
    }
    const id = integer(entry.id);
    if (entry.id === undefined || entry.id === null || entry.id === '') {
      if (flag(entry.deleted)) continue; // deleting a service that was never saved: nothing to do
      plan.add.push(entry);
      plan.addKeys.push(key);
      continue;
    }
    const existing = id === undefined ? undefined : current.find((service) => service.id === id);
    if (!existing) {
      throw badRequest(`Service "${key}": no service ${String(entry.id)} on this container.`, {
        [`services.${key}.id`]: 'is not a service of this container',
      });
    }
    if (flag(entry.deleted)) plan.remove.push(existing.id);
    else if (existing.httpService) {
      const changes = toggleChanges(key, entry, existing.httpService);
      if (Object.keys(changes).length) plan.toggle.push({ httpServiceId: existing.httpService.id, changes });
    }
  }
  return plan;
}

/** The toggles an entry sets to something else than the service has (unnamed ones stay). */
function toggleChanges(key: string, entry: ServiceUpdateInput, current: HttpToggles): Partial<HttpToggles> {
  const changes: Partial<HttpToggles> = {};
  for (const name of HTTP_TOGGLES) {
    if (entry[name] === undefined) continue;
    const value = flag(entry[name]);
    if (value === undefined) {
      throw badRequest(`Service "${key}": ${name} must be true or false.`, {
        [`services.${key}.${name}`]: 'must be true or false',
      });
    }
    if (value !== current[name]) changes[name] = value;
  }
  return changes;
}

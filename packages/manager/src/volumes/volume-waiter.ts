import type { ConfigChanges } from '../site-config/config-changes.ts';
import { pause } from '../providers/pause.ts';
import type { NodeType } from '../nodes/node-rules.ts';
import type { BindMount, OperationContext } from '../providers/types.ts';
import { volumeHostPath, volumeStorageDir } from './volume-paths.ts';
import type { VolumeRecord, VolumesRepository } from './volumes-repository.ts';

export interface VolumeWaitOptions {
  /** Where storages named by a node's volumeStorage are mounted. */
  storageRoot: string;
  waitMs: number;
  pollMs: number;
}

/** The container as provisioning knows it. */
export interface VolumeOwner {
  id: number;
  siteId: number;
  ownerUid: number;
  hostname: string;
}

/** A volume the site agent reported failed, or did not prepare in time: the job fails with this. */
export class VolumeError extends Error {
  override name = 'VolumeError';
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The volume step of create and reconfigure jobs: the site agent makes each volume's host folder
 * (it learns of them from its snapshot) and reports at check-in; the job goes on once every volume
 * is ready. It re-reads on every configuration change (a check-in writes the result; on PostgreSQL
 * other processes announce theirs) and at least every `pollMs`.
 */
export class VolumeWaiter {
  constructor(
    private readonly repo: VolumesRepository,
    private readonly changes: ConfigChanges,
    private readonly options: VolumeWaitOptions,
  ) {}

  /** Gives the volumes their host paths, waits until all are ready, and answers their bind mounts. */
  async ready(
    container: VolumeOwner,
    node: { volumeStorage: string; nodeType: NodeType },
    ctx: OperationContext,
  ): Promise<BindMount[]> {
    const volumes = await this.repo.forContainer(container.id);
    if (!volumes.length) return [];
    const storageDir = volumeStorageDir(node.volumeStorage, this.options.storageRoot);
    const { siteId, ownerUid, hostname } = container;
    await this.repo.provision(volumes, (volume) =>
      volumeHostPath(storageDir, { siteId, ownerUid, hostname, name: volume.name }),
    );
    let current = await this.repo.forContainer(container.id);
    const waiting = current.filter((volume) => volume.status !== 'ready');
    if (waiting.length && !(await this.repo.lastCheckinOf(siteId))) {
      // Nobody will make the folders: say so now instead of after the whole wait.
      if (node.nodeType !== 'dummy') {
        throw new VolumeError(
          `No site agent has checked in for site ${siteId}, so nothing can prepare the ` +
            `${plural(waiting.length, 'volume')} of ${hostname}. Install the site agent on the site's gateway ` +
            `(README, "The site agent") and try again.`,
        );
      }
      await ctx.log(`No site agent serves site ${siteId}; the dummy node simulates the volumes' folders.`);
    } else if (waiting.length) {
      await ctx.log(
        `Waiting for the site agent of site ${container.siteId} to prepare ${plural(waiting.length, 'volume')} ` +
          `(${waiting.map((volume) => `${volume.hostPath} for ${volume.mountPath}`).join(', ')}); ` +
          `up to ${Math.round(this.options.waitMs / 1000)} s.`,
      );
      current = await this.untilReady(container, ctx);
    }
    for (const volume of current) {
      await ctx.log(`Volume ${volume.name}: ${volume.hostPath} on ${volume.mountPath} (${volume.mode}).`);
    }
    return current.map((volume) => ({
      hostPath: volume.hostPath!,
      mountPath: volume.mountPath,
      readOnly: volume.mode === 'ro',
    }));
  }

  private async untilReady(container: VolumeOwner, ctx: OperationContext): Promise<VolumeRecord[]> {
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      const volumes = await this.repo.forContainer(container.id);
      const failed = volumes.find((volume) => volume.status === 'failed');
      if (failed) {
        throw new VolumeError(
          `The site agent could not prepare volume ${failed.name} (${failed.hostPath}): ${failed.statusMessage ?? 'no reason given'}`,
        );
      }
      if (volumes.every((volume) => volume.status === 'ready')) return volumes;
      const left = deadline - Date.now();
      if (left <= 0) throw new VolumeError(await this.timeoutMessage(container, volumes));
      await this.nextChange(Math.min(this.options.pollMs, left), ctx.signal);
    }
  }

  /** Resolves at the next configuration change or after `ms`; rejects when the job is aborted. */
  private async nextChange(ms: number, signal: AbortSignal): Promise<void> {
    const woken = new AbortController();
    const unsubscribe = this.changes.onChange(() => woken.abort());
    try {
      await pause(ms, AbortSignal.any([signal, woken.signal]));
    } catch (error) {
      if (signal.aborted) throw error;
    } finally {
      unsubscribe();
    }
  }

  private async timeoutMessage(container: VolumeOwner, volumes: VolumeRecord[]): Promise<string> {
    const pending = volumes.filter((volume) => volume.status !== 'ready').map((volume) => volume.name);
    const last = await this.repo.lastCheckinOf(container.siteId);
    const agent = last
      ? `a site agent of site ${container.siteId} last checked in at ${last}`
      : `no site agent of site ${container.siteId} has ever checked in`;
    return (
      `The site agent did not prepare ${plural(pending.length, 'volume')} (${pending.join(', ')}) ` +
      `within ${Math.round(this.options.waitMs / 1000)} s; ${agent}.`
    );
  }
}

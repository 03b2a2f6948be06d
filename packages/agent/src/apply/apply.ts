import type { ApplyResult, Snapshot } from '../snapshot.ts';
import { FileSwap } from './files.ts';
import type { ManagedService } from './services.ts';

export interface ApplyOutcome {
  result: ApplyResult;
  changed: string[];
  error?: string;
}

/**
 * Refuses a snapshot with a value outside the grammar before anything is written. Otherwise swaps the
 * service's new files in, checks them with the service's own test, reloads; on any failure puts the
 * previous files back and reloads again, so the service keeps running what worked.
 */
export async function applyService(service: ManagedService, snapshot: Snapshot): Promise<ApplyOutcome> {
  const problems = service.problems(snapshot);
  if (problems.length) {
    return {
      result: 'failure',
      changed: [],
      error: `refused the snapshot, the running configuration is kept: ${problems.join('; ')}`,
    };
  }
  const swap = await FileSwap.prepare(service.files(snapshot));
  const changed = swap.changedPaths;
  if (!changed.length) return { result: 'success', changed };
  let reloading = false;
  try {
    await swap.swapIn();
    await service.validate();
    reloading = true;
    await service.reload(changed);
    return { result: 'success', changed };
  } catch (error) {
    await swap.restore();
    // A failed check never reached the running service; a failed reload may have: reload the old files.
    if (reloading) await service.reload(changed).catch(() => undefined);
    return { result: 'failure', changed, error: error instanceof Error ? error.message : String(error) };
  }
}

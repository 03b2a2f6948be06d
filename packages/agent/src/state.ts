import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApplyResult, CheckinBody } from './snapshot.ts';

/** What one run leaves for the next: the snapshot's ETag and what happened when it was applied. */
export interface AgentState {
  etag: string | null;
  lastApply: Record<string, ApplyResult>;
  /** Why the last apply of a service failed, by service name. */
  lastApplyError?: Record<string, string>;
  /** Volume results not yet acknowledged by a check-in. */
  volumes: NonNullable<CheckinBody['volumes']>;
  /** Volume folder removals not yet acknowledged by a check-in (absent in older state files). */
  volumeRemovals?: NonNullable<CheckinBody['volumeRemovals']>;
}

const EMPTY: AgentState = { etag: null, lastApply: {}, volumes: [] };

export async function loadState(directory: string): Promise<AgentState> {
  try {
    return {
      ...EMPTY,
      ...(JSON.parse(await readFile(join(directory, 'state.json'), 'utf8')) as Partial<AgentState>),
    };
  } catch {
    return { ...EMPTY };
  }
}

export async function saveState(directory: string, state: AgentState) {
  // dnsmasq, after dropping privileges, reads the host files kept here: the folder must be traversable.
  await mkdir(directory, { recursive: true, mode: 0o755 });
  const file = join(directory, 'state.json');
  await writeFile(`${file}.tmp`, JSON.stringify(state, null, 2), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

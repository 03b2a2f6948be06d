import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApplyResult, CheckinBody, Snapshot } from './snapshot.ts';

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

async function saveJson(directory: string, name: string, value: unknown) {
  // dnsmasq, after dropping privileges, reads the host files kept here: the folder must be traversable.
  await mkdir(directory, { recursive: true, mode: 0o755 });
  const file = join(directory, name);
  await writeFile(`${file}.tmp`, JSON.stringify(value, null, 2), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

export const saveState = (directory: string, state: AgentState) => saveJson(directory, 'state.json', state);

/** The last snapshot applied: what certificates are kept for while the manager answers 304. */
export const saveSnapshot = (directory: string, snapshot: Snapshot) =>
  saveJson(directory, 'snapshot.json', snapshot);

export async function loadSnapshot(directory: string): Promise<Snapshot | undefined> {
  try {
    return JSON.parse(await readFile(join(directory, 'snapshot.json'), 'utf8')) as Snapshot;
  } catch {
    return undefined;
  }
}

import { readFile } from 'node:fs/promises';
import type { FileContent } from './apply/files.ts';
import type { ServicesConfig } from './config.ts';
import { managedServices } from './run.ts';
import type { Snapshot } from './snapshot.ts';

export interface DryRunResult {
  /** Values the agent would refuse; when there are any, it would keep the running configuration. */
  problems: string[];
  /** The files a run would write, in the order it writes them. */
  files: FileContent[];
}

/** Reads a snapshot saved from the check-in answer (`{data: {site, proxy}}`) or its bare `{site, proxy}`. */
export async function readSnapshotFile(path: string): Promise<Snapshot> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  const body = (parsed as { data?: unknown }).data ?? parsed;
  const { site, proxy } = (body ?? {}) as Partial<Snapshot>;
  if (typeof site !== 'object' || site === null || typeof proxy !== 'object' || proxy === null) {
    throw new Error(`${path}: not a snapshot (expected {site, proxy} or {data: {site, proxy}})`);
  }
  return { site, proxy };
}

/** What a run would write for this snapshot, without writing, checking or reloading anything. */
export function dryRun(config: ServicesConfig, snapshot: Snapshot): DryRunResult {
  const services = managedServices(config);
  return {
    problems: services.flatMap((service) => service.problems(snapshot)),
    files: services.flatMap((service) => service.files(snapshot)),
  };
}

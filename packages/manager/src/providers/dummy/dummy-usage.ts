import type { NodeUsage, Resources, UsageSample } from '../types.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const HOUR_MS = 3600_000;
/** The simulated node's size (as its stats report it). */
export const DUMMY_NODE = { cores: 8, memory: 32 * GiB, disk: 100 * GiB };
/** Steady traffic of each running simulated container, in bytes per second. */
export const DUMMY_TRAFFIC = { inPerS: 2000, outPerS: 1000 };

/** Between 0.1 and 0.3, going round once an hour; each container at its own phase. */
const load = (at: number, vmid: number) => 0.2 + 0.1 * Math.sin(2 * Math.PI * (at / HOUR_MS + vmid / 10));

/** A running simulated container at `at`: a function of its allocation, its id and the moment only. */
export function simulatedSample(vmid: number, resources: Resources, at: number): UsageSample {
  return {
    cpuCores: resources.cores * load(at, vmid),
    cpuLimit: resources.cores,
    memoryBytes: Math.round(resources.memoryMb * MiB * (0.2 + load(at, vmid))),
    memoryLimit: resources.memoryMb * MiB,
    diskBytes: Math.round(resources.rootfsGb * GiB * 0.25),
    diskLimit: resources.rootfsGb * GiB,
    netInTotal: Math.floor((at / 1000) * DUMMY_TRAFFIC.inPerS),
    netOutTotal: Math.floor((at / 1000) * DUMMY_TRAFFIC.outPerS),
  };
}

/** The node: a fixed base load plus what its running containers use. */
export function simulatedUsage(
  running: Array<{ vmid: number; resources: Resources }>,
  at: number,
): NodeUsage {
  const instances = new Map(running.map((r) => [String(r.vmid), simulatedSample(r.vmid, r.resources, at)]));
  const sum = (pick: (s: UsageSample) => number | undefined) =>
    [...instances.values()].reduce((total, s) => total + (pick(s) ?? 0), 0);
  return {
    node: {
      cpuCores: 0.4 + sum((s) => s.cpuCores),
      cpuLimit: DUMMY_NODE.cores,
      memoryBytes: 2 * GiB + sum((s) => s.memoryBytes),
      memoryLimit: DUMMY_NODE.memory,
      diskBytes: 10 * GiB + sum((s) => s.diskBytes),
      diskLimit: DUMMY_NODE.disk,
    },
    instances,
    trafficOfInstances: true,
  };
}

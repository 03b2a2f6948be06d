// How the services run (npm start, the bench; the systemd units' ExecStart and the container image's
// entrypoint pass the same flags and set the same environment): a young generation of at most 4 MB per
// semi-space instead of V8's 16, and at most two glibc malloc arenas instead of eight per core — together
// about 30 MB less memory per service under load. The translator's heap is also sized for memory rather
// than speed (`--optimize-for-size`, which NODE_OPTIONS may not carry): under a plain load its old
// generation grew to 60 MB, 20–35 MB of it garbage, and its RSS past its 100 MB goal; with the flag it stays
// at 80–85 MB for no CPU per request the bench could see (docs/benchmarks.md, "Memory").
const SERVICE_NODE_FLAGS = ['--max-semi-space-size=4'];
const TRANSLATOR_NODE_FLAGS = [...SERVICE_NODE_FLAGS, '--optimize-for-size'];

/** The Node.js flags a service's start file runs with. */
export const nodeFlagsFor = (entry) =>
  entry.includes('translator') ? TRANSLATOR_NODE_FLAGS : SERVICE_NODE_FLAGS;
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };

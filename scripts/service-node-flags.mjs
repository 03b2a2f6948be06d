// How the services run (npm start, the bench; the systemd units and the container image set the same
// through NODE_OPTIONS and their environment): a young generation of at most 4 MB per semi-space instead of
// V8's 16, and at most two glibc malloc arenas instead of eight per core. Together about 30 MB less memory
// per service under load, for a throughput difference within the bench's noise (docs/benchmarks.md, "Memory").
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=4'];
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };

// Containers on a real Docker Engine through the manager's API, from a local registry (the test image
// of packages/manager/test/real-engines): create-to-running (POST until the job succeeded) over 20
// creates one after another, p50 and p99; then 20 creates at once, which must all succeed with
// distinct addresses. Starts dockerd and a registry when needed (root), and removes what it made.
import { adminClient, startManager, type ManagerClient } from '../test/helpers.ts';
import { FAST_JOBS } from '../test/fleet-helpers.ts';
import { engineCall } from '../test/real-engines/engine-api.ts';
import { DOCKER_SOCKET, type Undo } from '../test/real-engines/services.ts';
import { dockerSite } from './fixtures/docker-site.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const PARALLEL = Number(process.env.PARALLEL ?? 20);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function jobEnd(admin: ManagerClient, jobId: number): Promise<string> {
  for (;;) {
    const status = (await admin.get(`/jobs/${jobId}`)).body.data.status as string;
    if (status !== 'pending' && status !== 'running') return status;
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** POST → job ended: the milliseconds, the job's status and the container as the API shows it. */
async function createTimed(admin: ManagerClient, siteId: number, hostname: string, image: string) {
  const started = performance.now();
  const response = await admin.post(`/sites/${siteId}/containers`, { hostname, template: image });
  if (response.status !== 201) throw new Error(`create ${hostname}: ${response.status} ${response.text}`);
  const status = await jobEnd(admin, response.body.data.jobId);
  const ms = performance.now() - started;
  const container = (await admin.get(`/sites/${siteId}/containers/${response.body.data.containerId}`)).body
    .data;
  return { ms, status, container: container as { containerId: string; ipv4Address: string; status: string } };
}

const undo: Undo[] = [];
try {
  const test = await startManager({ ...FAST_JOBS, NODE_TIMEOUT_MS: '30000' });
  undo.push(() => test.close());
  const admin = await adminClient(test);
  const { siteId, image, network } = await dockerSite(admin, undo, {
    subnet: '10.231.5',
    repository: 'fleet-bench/app',
    prefix: 'bench-',
  });

  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const { ms, status } = await createTimed(admin, siteId, `bench-seq${run}`, image);
    if (status !== 'success') throw new Error(`bench-seq${run}: job ${status}`);
    // The first create pulls the image and makes the site network: reported, not counted.
    if (run === 0) console.log(`first create (pull, network): ${ms.toFixed(0)} ms`);
    else times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(
    `create-to-running on real Docker, ${times.length} creates: p50 ${percentile(times, 50).toFixed(0)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(0)} ms`,
  );

  const started = performance.now();
  const all = await Promise.all(
    Array.from({ length: PARALLEL }, (_, index) => createTimed(admin, siteId, `bench-par${index}`, image)),
  );
  const wall = performance.now() - started;
  const succeeded = all.filter(
    (result) => result.status === 'success' && result.container.status === 'running',
  );
  const addresses = new Set<string>();
  for (const { container } of succeeded) {
    const inspected = (await engineCall(DOCKER_SOCKET, 'GET', `/containers/${container.containerId}/json`))
      .body as { NetworkSettings: { Networks: Record<string, { IPAddress: string }> } };
    const address = inspected.NetworkSettings.Networks[network]?.IPAddress;
    if (address === container.ipv4Address) addresses.add(address);
  }
  console.log(
    `${PARALLEL} creates at once: ${succeeded.length} succeeded, ${addresses.size} distinct addresses ` +
      `(as the manager reports them), all done in ${wall.toFixed(0)} ms`,
  );
  if (succeeded.length !== PARALLEL || addresses.size !== PARALLEL) process.exitCode = 1;
} finally {
  for (const step of undo.reverse()) await step();
}

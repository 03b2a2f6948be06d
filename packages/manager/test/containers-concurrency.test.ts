import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';

describe('containers: concurrent creates', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    // The worker stays idle (long poll, api role is not needed: jobs may run, they do not matter here).
    test = await startFleetManager({ TRANSPORT_PORT_RANGE: '31000-31199', DUMMY_STEP_MS: '0' });
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput({ dhcpRange: '10.0.0.10,10.0.0.120' }))).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim2', nodeType: 'dummy' });
  });
  afterAll(() => test.close());

  it('50 parallel creates: distinct hostnames, MACs, IPv4s and ports, or clean 409s; nothing half-written', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        admin.post(`/sites/${siteId}/containers`, {
          // Five pairs share a hostname: one of each pair must get a clean 409.
          hostname: index < 10 ? `dup${index % 5}` : `par${index}`,
          template: 'debian:12',
          services: {
            ssh: { type: 'tcp', internalPort: 22 },
            dns: { type: 'udp', internalPort: 53 },
          },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(45);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({
        code: 'conflict',
        fields: { hostname: expect.any(String) },
      });
    }

    const db = test.manager.database.db;
    const rows = await db.selectFrom('containers').selectAll().execute();
    expect(rows).toHaveLength(45);
    const distinct = (values: Array<string | null>) => new Set(values).size;
    expect(distinct(rows.map((row) => row.hostname))).toBe(45);
    expect(distinct(rows.map((row) => row.mac_address))).toBe(45);
    expect(distinct(rows.map((row) => row.ipv4_address))).toBe(45);
    expect(rows.every((row) => row.mac_address && row.ipv4_address && row.creation_job_id)).toBe(true);
    const created = new Set(
      responses.filter((r) => r.status === 201).map((r) => r.body.data.containerId as number),
    );
    expect(new Set(rows.map((row) => row.id))).toEqual(created);

    const ports = await db
      .selectFrom('transport_services')
      .innerJoin('services', 'services.id', 'transport_services.service_id')
      .select(['services.container_id', 'transport_services.protocol', 'transport_services.external_port'])
      .execute();
    expect(ports).toHaveLength(90); // two per container: none missing, none orphaned
    for (const protocol of ['tcp', 'udp']) {
      const list = ports.filter((port) => port.protocol === protocol).map((port) => port.external_port);
      expect(new Set(list).size).toBe(45);
    }
    const jobs = await db.selectFrom('jobs').select('id').where('command', '=', 'container.create').execute();
    expect(jobs).toHaveLength(45); // refused creates left no job behind
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestResponse } from '@app/server-kit/testing';
import { adminClient, ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

const HUGE = '99999999999999999999';
const LONG = 'x'.repeat(5000);

/** Out-of-range numbers and over-long strings are refused in the error envelope, never a 500. */
describe('bounds on the identity routes', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let tool: TestClient;
  let siteId: number;
  let containerId: number;
  let jobId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    tool = ManagerClient.withKey(`${test.baseUrl}/api/v1`, (await admin.post('/apikeys', {})).body.data.key);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'b1',
      template: 'debian:12',
    });
    containerId = created.body.data.containerId;
    jobId = created.body.data.jobId;
    await jobEnds(admin, jobId);
  });
  afterAll(() => test?.close());

  const refused = (what: string, response: TestResponse) => {
    expect(response.status, `${what}: ${response.text}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${what}: ${response.text}`).toBeLessThan(500);
    expect(response.body.error, what).toEqual(
      expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    );
  };

  it('refuses notification times and ids out of range', async () => {
    const event = { source: 's', severity: 'info', message: 'm' };
    for (const ts of [2 ** 53, 9e15, 1e308, -1])
      refused(`ts ${ts}`, await tool.post('/notifications', { ...event, ts }));
    refused('long source', await tool.post('/notifications', { ...event, source: LONG }));
    refused('long owner', await tool.post('/notifications', { ...event, owner: LONG }));
    refused('long node', await tool.post('/notifications', { ...event, node: LONG }));
    refused('ack id', await admin.post(`/notifications/${HUGE}/ack`));
    expect((await tool.post('/notifications', { ...event, ts: 1_790_000_000 })).status).toBe(201);
  });

  it('refuses group and user numbers out of range', async () => {
    for (const gidNumber of [1e308, 2 ** 31, 2 ** 53]) {
      refused(`gid ${gidNumber}`, await admin.post('/groups', { cn: 'big', gidNumber }));
    }
    for (const method of ['GET', 'PUT', 'DELETE']) {
      refused(
        `${method} group`,
        await admin.request(method, `/groups/${HUGE}`, { body: method === 'PUT' ? {} : undefined }),
      );
      refused(
        `${method} user`,
        await admin.request(method, `/users/${HUGE}`, { body: method === 'PUT' ? {} : undefined }),
      );
    }
    refused('groupIds', await admin.put('/users/2000', { groupIds: [1e308] }));
    const user = { uid: 'longname', givenName: 'L', sn: 'N', mail: 'l@example.test' };
    for (const field of ['givenName', 'sn', 'mail', 'userPassword']) {
      refused(`user ${field}`, await admin.post('/users', { ...user, [field]: LONG }));
    }
    refused('reassignTo', await admin.delete(`/users/2000?reassignTo=${LONG}`));
    expect((await admin.get('/groups')).body.data.map((g: { cn: string }) => g.cn)).toEqual([
      'ldapusers',
      'sysadmins',
    ]);
  });

  it('refuses job ids and offsets out of range', async () => {
    refused('offset', await admin.get(`/jobs/${jobId}/status?offset=${HUGE}`));
    refused('offset 2^53', await admin.get(`/jobs/${jobId}/status?offset=${2 ** 53}`));
    refused('job id', await admin.get(`/jobs/${HUGE}`));
    refused('job status id', await admin.get(`/jobs/${HUGE}/status`));
    refused('lastId', await admin.get(`/jobs/${jobId}/stream?lastId=${HUGE}`));
    refused('cancel id', await admin.post(`/jobs/${HUGE}/cancel`));
    expect((await admin.get(`/jobs/${jobId}/status?offset=0&limit=1`)).status).toBe(200);
  });

  it('refuses over-long names and out-of-range numbers in sign-in, sharing and resource requests', async () => {
    refused('login', await test.client().post('/auth/login', { username: LONG, password: LONG }));
    const registration = {
      uid: 'r1',
      givenName: 'R',
      sn: 'One',
      mail: 'r1@example.test',
      userPassword: 'correct horse',
    };
    for (const field of ['givenName', 'sn', 'mail', 'userPassword', 'inviteToken']) {
      refused(
        `register ${field}`,
        await test.client().post('/auth/register', { ...registration, [field]: LONG }),
      );
    }
    refused(
      'reset request',
      await test.client().post('/auth/password-reset/request', { usernameOrEmail: LONG }),
    );
    const share = `/sites/${siteId}/containers/${containerId}/collaborators`;
    refused('share', await admin.post(share, { username: LONG }));
    refused('unshare', await admin.delete(`${share}/${'y'.repeat(65)}`));
    const request = { siteId, hostname: 'b1', resourceType: 'memory', value: 8192 };
    refused('request siteId', await admin.post('/resource-requests', { ...request, siteId: 1e308 }));
    refused('request value', await admin.post('/resource-requests', { ...request, value: 1e308 }));
    refused('request hostname', await admin.post('/resource-requests', { ...request, hostname: LONG }));
    refused('request filter', await admin.get(`/resource-requests?siteId=${HUGE}`));
    refused('review id', await admin.put(`/resource-requests/${HUGE}/approve`, {}));
    refused('effective', await admin.get(`/resource-requests/effective/${HUGE}/b1/admin`));
  });
});

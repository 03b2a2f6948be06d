import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, ManagerClient, uidNumberOf, userClient, type TestManager } from './helpers.ts';
import type { ProxmoxFake } from '@app/fakes';
import { siteInput, startFleetManager, startImportCluster } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';
import { pause } from '../src/providers/pause.ts';
import type { AuditEvent } from '../src/audit/audit-entry.ts';

interface Change {
  action: string;
  /** The request, made twice: refused while the audit log cannot be written, then answered `status`. */
  send: () => Promise<{ status: number; text: string; body: { data?: { jobId?: number } } }>;
  status: number;
}

/**
 * Every state-changing route below writes its audit entry in the transaction of its change: while
 * `audit_events` refuses inserts, the change is refused with it (an entry written after the answer
 * would leave the change made and unrecorded); once it accepts them, the change has exactly one entry
 * by the time its answer arrives.
 */
describe('audit entries in the transaction of their change', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let bob: ManagerClient;
  let siteId: number;
  let containerUrl: string;
  let cluster: ProxmoxFake;
  const changes: Record<string, Change> = {};

  const db = () => test.manager.services.ctx.db;
  const entries = async (action: string): Promise<AuditEvent[]> => {
    const response = await admin.get(`/audit-events?limit=500&action=${action}`);
    expect(response.status, response.text).toBe(200);
    return response.body.data.events as AuditEvent[];
  };
  const refuseAuditWrites = async () => {
    if (test.schema) {
      await sql`create function refuse_audit() returns trigger language plpgsql as
        $$ begin raise exception 'the audit log refuses writes'; end $$`.execute(db());
      await sql`create trigger refuse_audit before insert on audit_events
        for each row execute function refuse_audit()`.execute(db());
    } else {
      await sql`create trigger refuse_audit before insert on audit_events
        begin select raise(abort, 'the audit log refuses writes'); end`.execute(db());
    }
  };
  const acceptAuditWrites = async () => {
    await sql`drop trigger refuse_audit${sql.raw(test.schema ? ' on audit_events' : '')}`.execute(db());
    if (test.schema) await sql`drop function refuse_audit()`.execute(db());
  };

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    bob = await userClient(test, admin, 'bob');
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const created = await alice.post(`/sites/${siteId}/containers`, {
      hostname: 'web1',
      template: 'custom',
      customTemplate: 'nginx:1.27',
    });
    expect(created.status, created.text).toBe(201);
    containerUrl = `/sites/${siteId}/containers/${created.body.data.containerId}`;
    expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
    const token = (await admin.post(`/sites/${siteId}/agent-tokens`, { description: 'gw' })).body.data;
    const domain = { name: 'apps.example.test', authServer: 'http://127.0.0.1:4180' };
    const pending = await alice.post('/resource-requests', {
      siteId,
      hostname: 'db9',
      resourceType: 'memory',
      value: 8192,
    });
    expect(pending.body.data.status).toBe('pending');
    const kept = await db()
      .insertInto('kept_volumes')
      .values({
        site_id: siteId,
        hostname: 'old1',
        name: 'data',
        host_path: `/srv/volumes/${siteId}/1001/old1/data`,
        mount_path: '/data',
        kept_at: new Date().toISOString(),
        status: 'kept',
        status_message: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    let domainId = 0;
    const alertRule = {
      name: 'Nodes busy',
      metric: 'cpuPercent',
      comparison: 'above',
      threshold: 90,
      durationSeconds: 300,
      scope: 'nodes',
    };
    let alertRuleId = 0;
    const tool = ManagerClient.withKey(
      `${test.baseUrl}/api/v1`,
      (await admin.post('/apikeys', {})).body.data.key,
    );
    const leaving = await userClient(test, admin, 'carol');
    cluster = await startImportCluster('root-password');
    const { jobHandlers, jobs } = test.manager.services;
    jobHandlers.register('test.idle', { run: (_payload, ctx) => pause(60_000, ctx.signal) });
    const idle = await jobs.enqueue('test.idle', {}, await uidNumberOf(test, 'alice'));

    Object.assign(changes, {
      'POST …/containers/{id}/stop': {
        action: 'container.stop',
        send: () => alice.post(`${containerUrl}/stop`),
        status: 202,
      },
      'POST …/containers/{id}/start': {
        action: 'container.start',
        send: () => alice.post(`${containerUrl}/start`),
        status: 202,
      },
      'POST …/containers/{id}/exec': {
        action: 'container.exec',
        send: () => alice.post(`${containerUrl}/exec`, { command: 'true' }),
        status: 202,
      },
      'POST …/containers/{id}/collaborators': {
        action: 'container.collaborator.create',
        send: () => alice.post(`${containerUrl}/collaborators`, { username: 'bob' }),
        status: 201,
      },
      'POST /notifications/{id}/ack': {
        action: 'notification.ack',
        send: async () => bob.post(`/notifications/${(await bob.get('/notifications')).body.data[0].id}/ack`),
        status: 200,
      },
      'POST /notifications/all/ack': {
        action: 'notification.all.ack',
        send: () => bob.post('/notifications/all/ack'),
        status: 200,
      },
      'DELETE …/containers/{id}/collaborators/{username}': {
        action: 'container.collaborator.delete',
        send: () => alice.delete(`${containerUrl}/collaborators/bob`),
        status: 200,
      },
      'POST /external-domains': {
        action: 'external_domain.create',
        send: async () => {
          const response = await admin.post('/external-domains', domain);
          domainId = response.body.data?.id;
          return response;
        },
        status: 201,
      },
      'PUT /external-domains/{id}': {
        action: 'external_domain.update',
        send: () => admin.put(`/external-domains/${domainId}`, { ...domain, acmeEmail: 'ops@example.test' }),
        status: 200,
      },
      'DELETE /external-domains/{id}': {
        action: 'external_domain.delete',
        send: () => admin.delete(`/external-domains/${domainId}`),
        status: 204,
      },
      'POST /alert-rules': {
        action: 'alert_rule.create',
        send: async () => {
          const response = await admin.post('/alert-rules', alertRule);
          alertRuleId = response.body.data?.id;
          return response;
        },
        status: 201,
      },
      'PUT /alert-rules/{id}': {
        action: 'alert_rule.update',
        send: () => admin.put(`/alert-rules/${alertRuleId}`, { ...alertRule, threshold: 95 }),
        status: 200,
      },
      'DELETE /alert-rules/{id}': {
        action: 'alert_rule.delete',
        send: () => admin.delete(`/alert-rules/${alertRuleId}`),
        status: 204,
      },
      'POST /resource-requests': {
        action: 'resource_request.create',
        send: () =>
          alice.post('/resource-requests', { siteId, hostname: 'db9', resourceType: 'cpus', value: 8 }),
        status: 201,
      },
      'PUT /resource-requests/{id}/approve': {
        action: 'resource_request.approve.update',
        send: () => admin.put(`/resource-requests/${pending.body.data.id}/approve`, {}),
        status: 200,
      },
      'DELETE /sites/{siteId}/kept-volumes/{id}': {
        action: 'kept_volume.delete',
        send: () => admin.delete(`/sites/${siteId}/kept-volumes/${kept.id}`),
        status: 202,
      },
      'DELETE /sites/{siteId}/agent-tokens/{id}': {
        action: 'agent_token.delete',
        send: () => admin.delete(`/sites/${siteId}/agent-tokens/${token.id}`),
        status: 204,
      },
      'POST /sites/{siteId}/agent-tokens': {
        action: 'agent_token.create',
        send: () => admin.post(`/sites/${siteId}/agent-tokens`, { description: 'gw2' }),
        status: 201,
      },
      'POST /notifications': {
        action: 'notification.create',
        send: () => tool.post('/notifications', { source: 'smart', severity: 'warning', message: 'disk' }),
        status: 201,
      },
      'POST /sites/{siteId}/nodes/import': {
        action: 'node.import',
        send: () =>
          admin.post(`/sites/${siteId}/nodes/import`, {
            apiUrl: cluster.url,
            username: 'root@pam',
            password: 'root-password',
            tlsFingerprint: cluster.fingerprint,
          }),
        status: 201,
      },
      'POST /jobs/{id}/cancel': {
        action: 'job.cancel',
        send: () => alice.post(`/jobs/${idle.id}/cancel`),
        status: 200,
      },
      'POST /auth/logout': {
        action: 'auth.logout',
        send: () => leaving.post('/auth/logout'),
        status: 200,
      },
      'DELETE …/containers/{id}': {
        action: 'container.delete',
        send: () => alice.delete(containerUrl),
        status: 200,
      },
    } satisfies Record<string, Change>);
  });
  afterAll(async () => {
    await test.close();
    await cluster.stop();
  });

  it('refuses each change its entry cannot be written with, then records it exactly once', async () => {
    for (const [route, change] of Object.entries(changes)) {
      const before = await entries(change.action);
      await refuseAuditWrites();
      const refused = await change.send().finally(acceptAuditWrites);
      expect(refused.status, `${route} without its entry: ${refused.text}`).toBeGreaterThanOrEqual(500);

      const done = await change.send();
      expect(done.status, `${route}: ${done.text}`).toBe(change.status);
      // No waiting: the entry committed with the change, before the answer. (The refused request's
      // failure entry is written once answered, maybe after the log accepts writes again.)
      const added = (await entries(change.action)).filter(
        (entry) => entry.outcome === 'success' && !before.some((old) => old.id === entry.id),
      );
      expect(added, route).toEqual([expect.objectContaining({ httpStatus: change.status })]);
      if (done.body.data?.jobId) await jobEnds(admin, done.body.data.jobId);
    }
  });

  it('leaves a failure entry and no success entry for a change its transaction rolled back', async () => {
    const domain = { name: 'twice.example.test', authServer: 'http://127.0.0.1:4180' };
    expect((await admin.post('/external-domains', domain)).status).toBe(201);
    // The second insert fails on the unique name: its transaction, entry included, rolls back.
    const again = await admin.post('/external-domains', domain);
    expect(again.status, again.text).toBe(409);
    await expect
      .poll(async () => (await entries('external_domain.create')).find((e) => e.httpStatus === 409))
      .toMatchObject({ outcome: 'failure', details: { name: 'twice.example.test' } });
    const named = (await entries('external_domain.create')).filter(
      (entry) => entry.details?.name === 'twice.example.test',
    );
    expect(named.map((entry) => entry.outcome)).toEqual(['failure', 'success']);
  });

  it('leaves a failure entry and no success entry for a delete its job refused', async () => {
    const created = await alice.post(`/sites/${siteId}/containers`, {
      hostname: 'web2',
      template: 'custom',
      customTemplate: 'nginx:1.27',
    });
    expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
    const { containerId } = created.body.data as { containerId: number };
    const vmid = (await alice.get(`/sites/${siteId}/containers/${containerId}`)).body.data.containerId;
    // The node's instance answers to another name: the job refuses before changing anything.
    await db()
      .updateTable('dummy_instances')
      .set({ hostname: 'someone-else' })
      .where('vmid', '=', Number(vmid))
      .execute();
    const refused = await alice.delete(`/sites/${siteId}/containers/${containerId}`);
    expect(refused.status, refused.text).toBe(409);
    const mine = async () =>
      (await entries('container.delete')).filter((entry) => entry.target.containerId === containerId);
    await expect.poll(async () => (await mine()).length).toBe(1);
    expect(await mine()).toEqual([
      expect.objectContaining({ outcome: 'failure', httpStatus: 409, errorCode: 'hostname_mismatch' }),
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './fleet-helpers.ts';
import { dummySite, jobEnds, type DummySite } from './container-helpers.ts';
import { acceptedTerminal, openTerminal } from './terminal-client.ts';

describe('container terminal (WebSocket) on the dummy node', () => {
  let { test, admin, owner, collab, other: stranger, siteId } = {} as DummySite;
  let containerId: number;
  let path: string;

  beforeAll(async () => {
    ({
      test,
      admin,
      owner,
      collab,
      other: stranger,
      siteId,
    } = await dummySite({ TERMINAL_IDLE_TIMEOUT_S: '2', TERMINAL_MAX_SESSIONS: '3' }));
    const created = await owner.post(`/sites/${siteId}/containers`, {
      template: 'debian:12',
      hostname: 'shell1',
      collaborators: ['colin'],
    });
    expect(created.status, created.text).toBe(201);
    expect(await jobEnds(owner, created.body.data.jobId)).toBe('success');
    containerId = created.body.data.containerId;
    path = `/sites/${siteId}/containers/${containerId}/terminal`;
  });
  afterAll(() => test.close());

  const terminalEvents = async () =>
    (await test.manager.services.audit.page({ containerId }, 50)).events
      .filter((event) => event.action.startsWith('container.terminal_'))
      .map((event) => [event.action, event.outcome, event.actor.uid, event.sourceAddress, event.details]);

  it('runs a command for the owner and reflects a resize in stty size', async () => {
    const terminal = await acceptedTerminal(test.baseUrl, `${path}?cols=100&rows=30`, { client: owner });
    await terminal.waitFor(/# $/);
    expect((await terminal.run('echo $((6*7))', /\r\n(\d+)\r\n/))[1]).toBe('42');
    expect(await terminal.sttySize()).toBe('30 100');
    terminal.resize(132, 43);
    expect(await terminal.sttySize()).toBe('43 132');
    terminal.type('exit\r');
    expect(await terminal.closed).toEqual({ code: 1000, exitReason: 'the shell exited' });
    // The session's open and close in the audit log, newest first, under the owner from this address.
    await eventually(async () => (await terminalEvents()).length === 2);
    expect(await terminalEvents()).toEqual([
      ['container.terminal_close', 'success', 'olga', '127.0.0.1', { reason: 'the shell exited' }],
      ['container.terminal_open', 'success', 'olga', '127.0.0.1', null],
    ]);
  });

  it('admits an administrator and an API key of the owner', async () => {
    const asAdmin = await acceptedTerminal(test.baseUrl, path, { client: admin });
    expect((await asAdmin.run('echo $((6*7))', /\r\n(\d+)\r\n/))[1]).toBe('42');
    asAdmin.socket.close();
    const key = (await owner.post('/apikeys', {})).body.data.key as string;
    const withKey = await acceptedTerminal(test.baseUrl, path, { key });
    expect((await withKey.run('echo hello', /\r\n(\w+)\r\n/))[1]).toBe('hello');
    withKey.socket.close();
  });

  it('refuses collaborators (403), strangers (404), anonymous callers (401) before the upgrade', async () => {
    expect(await openTerminal(test.baseUrl, path, { client: collab })).toMatchObject({ status: 403 });
    expect(await openTerminal(test.baseUrl, path, { client: stranger })).toMatchObject({ status: 404 });
    expect(await openTerminal(test.baseUrl, path, {})).toMatchObject({ status: 401 });
    expect((await owner.get(path)).body.error.code).toBe('websocket_required');
    const missing = `/sites/${siteId}/containers/999999/terminal`;
    expect(await openTerminal(test.baseUrl, missing, { client: owner })).toMatchObject({ status: 404 });
  });

  it("refuses a cookie sent from another site's page, or with no Origin", async () => {
    const evil = await openTerminal(test.baseUrl, path, { client: owner, origin: 'https://evil.example' });
    expect(evil).toMatchObject({ status: 403 });
    expect(await openTerminal(test.baseUrl, path, { client: owner, origin: null })).toMatchObject({
      status: 403,
    });
  });

  it('answers a refused upgrade in the envelope with Connection: close, and records each refusal with why', async () => {
    const refusals = [
      { auth: { client: collab }, status: 403, code: 'forbidden', uid: 'colin' },
      { auth: { client: stranger }, status: 404, code: 'not_found', uid: 'oscar' },
      {
        auth: { client: owner, origin: 'https://evil.example' },
        status: 403,
        code: 'forbidden',
        uid: 'olga',
      },
    ];
    const messages: string[] = [];
    for (const { auth, status, code } of refusals) {
      const refused = await openTerminal(test.baseUrl, path, auth);
      expect(refused).toMatchObject({ status, connection: 'close' });
      const { error } = JSON.parse((refused as { body: string }).body) as {
        error: { code: string; message: string };
      };
      expect(error.code).toBe(code);
      messages.push(error.message);
    }
    expect(messages[2]).toMatch(/Origin/);
    await eventually(async () => (await terminalEvents()).length >= 2 + refusals.length);
    const events = (await test.manager.services.audit.page({ containerId }, 50)).events;
    expect(events.slice(0, refusals.length).reverse()).toEqual(
      refusals.map(({ status, code, uid }, index) =>
        expect.objectContaining({
          action: 'container.terminal_open',
          outcome: 'failure',
          actor: expect.objectContaining({ uid }),
          sourceAddress: '127.0.0.1',
          target: { type: 'container', id: String(containerId), siteId, containerId },
          httpStatus: status,
          errorCode: code,
          details: { reason: messages[index] },
        }),
      ),
    );
  });

  it('closes an open terminal at once when its user is suspended', async () => {
    const terminal = await acceptedTerminal(test.baseUrl, path, { client: owner });
    await terminal.waitFor(/# $/);
    const users = (await admin.get('/users')).body.data as Array<{ uid: string; uidNumber: number }>;
    const olga = users.find((user) => user.uid === 'olga')!;
    const started = Date.now();
    expect((await admin.put(`/users/${olga.uidNumber}`, { status: 'suspended' })).status).toBe(200);
    const closed = await terminal.closed;
    expect(closed.code).toBe(4403);
    expect(closed.exitReason).toMatch(/access to this container ended/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await admin.put(`/users/${olga.uidNumber}`, { status: 'active' })).status).toBe(200);
    await owner.login('olga');
  });

  it('closes a terminal opened with an API key at once when the key is deleted', async () => {
    const created = (await owner.post('/apikeys', {})).body.data as { id: string; key: string };
    const terminal = await acceptedTerminal(test.baseUrl, path, { key: created.key });
    await terminal.waitFor(/# $/);
    expect((await owner.delete(`/apikeys/${created.id}`)).status).toBe(204);
    expect((await terminal.closed).code).toBe(4403);
  });

  it('closes a terminal within the re-check when its container is deleted', async () => {
    const made = await owner.post(`/sites/${siteId}/containers`, {
      template: 'debian:12',
      hostname: 'gone1',
    });
    expect(await jobEnds(owner, made.body.data.jobId)).toBe('success');
    const other = `/sites/${siteId}/containers/${made.body.data.containerId}`;
    const terminal = await acceptedTerminal(test.baseUrl, `${other}/terminal`, { client: owner });
    await terminal.waitFor(/# $/);
    // Typing meanwhile: the idle timeout of this file (2 s) is shorter than the re-check.
    const typing = setInterval(() => terminal.type(' '), 500);
    try {
      expect((await owner.delete(other)).status).toBe(200);
      expect(await terminal.closed).toMatchObject({ code: 4403 });
    } finally {
      clearInterval(typing);
    }
  }, 20_000);

  it('closes after the idle timeout, saying why', async () => {
    const terminal = await acceptedTerminal(test.baseUrl, path, { client: admin });
    const closed = await terminal.closed;
    expect(closed).toEqual({ code: 4408, exitReason: 'Closed after 2 s without input.' });
    expect(terminal.output).toContain('[Closed after 2 s without input.]');
  });

  it('holds at most TERMINAL_MAX_SESSIONS per user (close code 4429)', async () => {
    const open = await Promise.all(
      [1, 2, 3].map(() => acceptedTerminal(test.baseUrl, path, { client: admin })),
    );
    const fourth = await acceptedTerminal(test.baseUrl, path, { client: admin });
    expect((await fourth.closed).code).toBe(4429);
    await eventually(async () =>
      (await terminalEvents()).some(
        ([action, outcome, , , details]) =>
          action === 'container.terminal_open' &&
          outcome === 'failure' &&
          /terminals open already/.test(JSON.stringify(details)),
      ),
    );
    for (const terminal of open) terminal.socket.close();
  });
});

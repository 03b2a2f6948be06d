import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const PASSWORD = 'root-password-42';
const WRONG_PIN = Array.from({ length: 32 }, () => 'AB').join(':');

/**
 * Proxmox VE nodes and cluster imports check the certificate by default (a node whose tlsVerify is
 * unset is verified) or against a pinned SHA-256 fingerprint; no token or password goes over a
 * connection that failed the check. The fake serves a self-signed certificate.
 */
describe('Proxmox VE over TLS: verified by default, or pinned', () => {
  let pve: ProxmoxFake;
  let plain: ProxmoxFake;
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    pve = await new ProxmoxFake({
      tls: true,
      tokens: { [TOKEN]: SECRET },
      users: { 'root@pam': PASSWORD },
      taskDurationMs: 0,
    }).start();
    plain = await new ProxmoxFake({ users: { 'root@pam': PASSWORD } }).start();
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
  });
  afterAll(async () => {
    await test.close();
    await Promise.all([pve.stop(), plain.stop()]);
  });

  const nodes = () => `/sites/${siteId}/nodes`;
  const sentSecrets = (fake: ProxmoxFake) =>
    JSON.stringify(fake.requests).includes(SECRET) || JSON.stringify(fake.requests).includes(PASSWORD);

  /** Adds node `pve` (the fake's member) with these TLS settings, reads its stats, removes it. */
  async function statsWith(tls: Record<string, unknown>) {
    const created = await admin.post(nodes(), {
      name: 'pve',
      apiUrl: pve.url,
      tokenId: TOKEN,
      secret: SECRET,
      ...tls,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as number;
    const stats = (await admin.get(`${nodes()}/${id}/stats`)).body.data;
    expect((await admin.delete(`${nodes()}/${id}`)).status).toBe(204);
    return { node: created.body.data, stats };
  }

  it('verifies the certificate when tlsVerify is unset: a self-signed one is refused before any credential goes', async () => {
    pve.clearRequests();
    const { node, stats } = await statsWith({});
    expect(node).toMatchObject({ tlsVerify: null, tlsFingerprint: null });
    expect(stats.available).toBe(false);
    expect(stats.reason).toMatch(/certificate/i);
    expect(pve.requests).toEqual([]);
  });

  it('tlsVerify false turns the check off, explicitly', async () => {
    expect((await statsWith({ tlsVerify: false })).stats.available).toBe(true);
  });

  it('a pinned fingerprint is accepted whatever the CA, written as Proxmox VE shows it or in plain hex', async () => {
    const lower = await statsWith({ tlsFingerprint: pve.fingerprint.toLowerCase() });
    expect(lower.node.tlsFingerprint).toBe(pve.fingerprint);
    expect(lower.stats.available).toBe(true);
    const hex = await statsWith({ tlsFingerprint: pve.fingerprint.replace(/:/g, ''), tlsVerify: true });
    expect(hex.stats.available).toBe(true);
  });

  it('a wrong pin fails with a message naming both fingerprints, and sends no credentials', async () => {
    pve.clearRequests();
    const { stats } = await statsWith({ tlsFingerprint: WRONG_PIN });
    expect(stats.available).toBe(false);
    expect(stats.reason).toContain(WRONG_PIN);
    expect(stats.reason).toContain(pve.fingerprint);
    expect(pve.requests).toEqual([]);
  });

  it('refuses a fingerprint that is not one, or a pin on a plain-HTTP apiUrl (422)', async () => {
    const bad = await admin.post(nodes(), { name: 'pve', apiUrl: pve.url, tlsFingerprint: 'AB:CD' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toHaveProperty('tlsFingerprint');
    const http = await admin.post(nodes(), {
      name: 'pve',
      apiUrl: plain.url,
      tlsFingerprint: pve.fingerprint,
    });
    expect(http.status).toBe(422);
    expect(http.body.error.fields.tlsFingerprint).toMatch(/https/);
  });

  it('another pin, or the check turned off, drops the stored secret; a stronger check keeps it', async () => {
    const body = { name: 'pve', apiUrl: pve.url, tokenId: TOKEN };
    const created = await admin.post(nodes(), { ...body, secret: SECRET });
    const id = created.body.data.id as number;
    const put = async (tls: Record<string, unknown>) =>
      (await admin.put(`${nodes()}/${id}`, { ...body, ...tls })).body.data.hasSecret as boolean;
    expect(await put({ tlsFingerprint: pve.fingerprint })).toBe(true);
    expect(await put({ tlsFingerprint: WRONG_PIN })).toBe(false);
    await put({ secret: SECRET });
    expect(await put({ tlsVerify: false })).toBe(false);
    await put({ tlsVerify: false, secret: SECRET });
    expect(await put({})).toBe(true);
    expect((await admin.delete(`${nodes()}/${id}`)).status).toBe(204);
  });

  describe('cluster import (root@pam with a password)', () => {
    const importFrom = (body: Record<string, unknown>) =>
      admin.post(`${nodes()}/import`, { username: 'root@pam', password: PASSWORD, ...body });

    it('verifies the cluster by default: a self-signed certificate fails before the password is sent', async () => {
      pve.clearRequests();
      const answer = await importFrom({ apiUrl: pve.url });
      expect(answer.status, answer.text).toBe(502);
      expect(answer.body.error.code).toBe('import_failed');
      expect(answer.body.error.message).toMatch(/certificate/i);
      expect(pve.requests).toEqual([]);
    });

    it('never sends the password unverified: tlsVerify false without a pin, or plain HTTP, is a 400', async () => {
      pve.clearRequests();
      const unverified = await importFrom({ apiUrl: pve.url, tlsVerify: false });
      expect(unverified.status, unverified.text).toBe(400);
      expect(unverified.body.error).toMatchObject({ code: 'invalid_request' });
      expect(unverified.body.error.fields).toHaveProperty('tlsFingerprint');
      const http = await importFrom({ apiUrl: plain.url });
      expect(http.status, http.text).toBe(400);
      expect(http.body.error.fields).toHaveProperty('apiUrl');
      expect(pve.requests).toEqual([]);
      expect(plain.requests).toEqual([]);
    });

    it('a wrong pin fails with a clear message and sends nothing', async () => {
      pve.clearRequests();
      const answer = await importFrom({ apiUrl: pve.url, tlsFingerprint: WRONG_PIN });
      expect(answer.status).toBe(502);
      expect(answer.body.error.message).toContain(WRONG_PIN);
      expect(sentSecrets(pve)).toBe(false);
      expect(pve.requests).toEqual([]);
    });

    it('a pinned import creates pinned nodes that work', async () => {
      const answer = await importFrom({ apiUrl: pve.url, tlsFingerprint: pve.fingerprint });
      expect(answer.status, answer.text).toBe(201);
      const [node] = answer.body.data.nodes as Array<{ id: number; tlsFingerprint: string; tlsVerify: null }>;
      expect(node).toMatchObject({ name: 'pve', tlsFingerprint: pve.fingerprint, tlsVerify: null });
      expect((await admin.get(`${nodes()}/${node!.id}/stats`)).body.data.available).toBe(true);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, siteInput, siteWithDomain, startFleetManager } from './fleet-helpers.ts';
import { addWebContainer } from './container-helpers.ts';
import { startMailSink } from './mail-sink.ts';

const HOST = 'web1.apps.example.test';
const good = {
  hostname: HOST,
  notAfter: '2027-02-01T00:00:00.000Z',
  lastError: null,
  nextAttempt: '2027-01-02T00:00:00.000Z',
};
const refused = (attempt: number) => ({
  ...good,
  lastError: `the ACME server refused the HTTP-01 challenge: could not resolve ${HOST} (attempt ${attempt})`,
  nextAttempt: `2027-01-02T0${attempt}:00:00.000Z`,
});

describe('certificates the site agents report', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  let siteId: number;
  let domainId: number;
  const report = (certificates: unknown[]) =>
    test.client().post('/agents', checkin(siteId, { certificates }));
  const certificateNotices = async () =>
    ((await admin.get('/notifications')).body.data as { action: string; message: string }[]).filter(
      (n) => n.action === 'certificate.failed',
    );

  beforeAll(async () => {
    sink = await startMailSink();
    test = await startFleetManager();
    admin = await adminClient(test);
    ({ siteId, domainId } = await siteWithDomain(admin, { domain: { acmeEmail: 'ops@example.test' } }));
    expect(await addWebContainer(admin, siteId, domainId)).toBe('success');
    await admin.put('/settings', { smtpUrl: sink.url, smtpNoreplyAddress: 'noreply@example.test' });
  });
  afterAll(async () => {
    await test?.close();
    await sink?.close();
  });

  it("shows each certificate of the domain's services with its expiry, as the agent reported it", async () => {
    expect((await admin.get(`/external-domains/${domainId}/certificates`)).body.data).toEqual([]);
    expect((await report([good])).status).toBe(200);
    const listed = await admin.get(`/external-domains/${domainId}/certificates`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { ...good, siteId, siteName: siteInput().name, reportedAt: expect.any(String) },
    ]);
    expect(await certificateNotices()).toEqual([]);
  });

  it('tells the administrators once per failure (a notification and an e-mail), not at every attempt', async () => {
    await report([refused(1)]);
    const [notice, ...more] = await certificateNotices();
    expect(more).toEqual([]);
    expect(notice!.message).toContain(`The certificate for ${HOST} could not be obtained or renewed`);
    const mail = await sink.next('admin@example.test');
    expect(mail.text).toContain(HOST);
    expect(mail.text).toContain('could not resolve');

    // The agent tries again and fails again: the page shows the latest, nobody is told twice.
    await report([refused(2)]);
    expect(await certificateNotices()).toHaveLength(1);
    expect((await admin.get(`/external-domains/${domainId}/certificates`)).body.data[0]).toMatchObject({
      lastError: refused(2).lastError,
      nextAttempt: refused(2).nextAttempt,
      notAfter: good.notAfter,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages).toEqual([]);

    // Renewed, then failing anew: a new failure, told again.
    await report([good]);
    expect((await admin.get(`/external-domains/${domainId}/certificates`)).body.data[0].lastError).toBeNull();
    await report([refused(3)]);
    expect(await certificateNotices()).toHaveLength(2);
    expect((await sink.next('admin@example.test')).text).toContain('attempt 3');
  });

  it('forgets a certificate the agent no longer keeps, and refuses a malformed report', async () => {
    await report([]);
    expect((await admin.get(`/external-domains/${domainId}/certificates`)).body.data).toEqual([]);
    const bad = await report([{ ...good, notAfter: 'soon' }]);
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
  });

  it('is for administrators only, and 404 for an unknown domain', async () => {
    const user = await userClient(test, admin, 'certuser');
    expect((await user.get(`/external-domains/${domainId}/certificates`)).status).toBe(403);
    const missing = await admin.get('/external-domains/999999/certificates');
    expect(missing.status).toBe(404);
  });
});

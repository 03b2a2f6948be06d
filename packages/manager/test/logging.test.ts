import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startManager, type TestManager } from './helpers.ts';
import { linkIn, startMailSink } from './mail-sink.ts';

describe('request logs', () => {
  const lines: string[] = [];
  let test: TestManager;
  let sink: Awaited<ReturnType<typeof startMailSink>>;

  beforeAll(async () => {
    sink = await startMailSink();
    test = await startManager(
      { LOG_LEVEL: 'info', PUBLIC_URL: 'https://m.example.test' },
      { logStream: { write: (line: string) => lines.push(line) } },
    );
  });
  afterAll(async () => {
    await test.close();
    await sink.close();
  });

  it('carry a request id on every line and never a password, key, cookie or token', async () => {
    const admin = await adminClient(test);
    // Without SMTP the invitation link is the answer, and only that.
    const handed = (await admin.post('/users/invite', { email: 'handed@example.test' })).body.data;
    const inviteToken = new URL(handed.inviteUrl as string).searchParams.get('invite')!;
    await admin.put('/settings', { smtpUrl: sink.url, smtpNoreplyAddress: 'noreply@example.test' });
    const key = (await admin.post('/apikeys', {})).body.data.key as string;
    await test.client().get('/session', { headers: { authorization: `Bearer ${key}` } });
    await test.client().post('/auth/password-reset/request', { usernameOrEmail: 'admin' });
    const token = decodeURIComponent(
      linkIn(await sink.next('admin@example.test'), 'https://m.example.test/reset-password/')
        .split('/')
        .pop()!,
    );
    await test.client().get(`/auth/password-reset/${encodeURIComponent(token)}`);

    // The web client's pages for the same links (deep links are logged like any request).
    const html = { headers: { accept: 'text/html' } };
    await fetch(`${test.baseUrl}/reset-password/${encodeURIComponent(token)}`, html);
    await fetch(`${test.baseUrl}/register?invite=invite-secret-1&x=1`, html);
    await fetch(`${test.baseUrl}/register?x=1&invite=invite-secret-2`, html);
    await test.client().get('/auth/register/invite/invite-secret-3');

    const requestLines = lines.map((line) => JSON.parse(line)).filter((entry) => entry.req || entry.res);
    expect(requestLines.length).toBeGreaterThan(10);
    for (const entry of requestLines) expect(entry.reqId).toMatch(/^[0-9a-f-]{36}$/);
    const all = lines.join('\n');
    expect(all).toContain('/password-reset/[redacted]');
    expect(all).toContain('/reset-password/[redacted]');
    expect(all).toContain('/register?invite=[redacted]&x=1');
    for (const secret of [
      'correct horse',
      key,
      encodeURIComponent(token),
      admin.cookie('connect.sid')!,
      'invite-secret-1',
      'invite-secret-2',
      'invite-secret-3',
      inviteToken,
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});

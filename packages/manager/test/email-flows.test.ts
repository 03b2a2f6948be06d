import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startManager, type ManagerClient, type TestManager } from './helpers.ts';
import { linkIn, startMailSink } from './mail-sink.ts';

const PUBLIC_URL = 'https://manager.example.test';

describe('e-mail flows through a real SMTP server', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let sink: Awaited<ReturnType<typeof startMailSink>>;

  beforeAll(async () => {
    sink = await startMailSink();
    test = await startManager({ PUBLIC_URL });
    admin = await adminClient(test);
  });
  afterAll(async () => {
    await test.close();
    await sink.close();
  });

  it('answers the invitation link (from PUBLIC_URL, not Host) before SMTP is set up; it registers once', async () => {
    const response = await admin.post(
      '/users/invite',
      { email: 'Early@Example.test' },
      { headers: { host: 'evil.example' } },
    );
    expect(response.status).toBe(200);
    const { inviteUrl, message } = response.body.data as { inviteUrl: string; message: string };
    expect(message).toMatch(/E-mail is not set up.*give early@example.test this link/);
    expect(inviteUrl.startsWith(`${PUBLIC_URL}/register?invite=`)).toBe(true);
    const token = new URL(inviteUrl).searchParams.get('invite')!;
    // Only the answer holds it: neither the audit log nor the users list shows it.
    const shown = JSON.stringify([(await admin.get('/audit-events')).body, (await admin.get('/users')).body]);
    expect(shown).not.toContain(token);

    const client = test.client();
    expect((await client.get(`/auth/register/invite/${encodeURIComponent(token)}`)).body.data).toEqual({
      email: 'early@example.test',
    });
    const registration = (uid: string) => ({
      uid,
      givenName: 'Early',
      sn: 'Bird',
      mail: 'early@example.test',
      userPassword: 'correct horse',
      inviteToken: token,
    });
    const registered = await client.post('/auth/register', registration('early'));
    expect(registered.body.data.status).toBe('active');
    const reused = await test.client().post('/auth/register', registration('early2'));
    expect(reused.body.error.code).toBe('invalid_invite');
  });

  it('sends an invitation whose link (built from PUBLIC_URL, not Host) registers an active user', async () => {
    const settings = await admin.put('/settings', {
      smtpUrl: sink.url,
      smtpNoreplyAddress: 'noreply@example.test',
    });
    expect(settings.status).toBe(200);

    const invite = await admin.post(
      '/users/invite',
      { email: 'Newcomer@Example.test' },
      { headers: { host: 'evil.example' } },
    );
    expect(invite.status).toBe(200);
    expect(invite.body.data).toEqual({ email: 'newcomer@example.test', message: expect.any(String) });

    const mail = await sink.next('newcomer@example.test');
    expect(mail.from).toBe('noreply@example.test');
    expect(mail.text).not.toContain('evil.example');
    const link = linkIn(mail, `${PUBLIC_URL}/register?invite=`);
    const token = decodeURIComponent(new URL(link).searchParams.get('invite')!);

    const client = test.client();
    const check = await client.get(`/auth/register/invite/${encodeURIComponent(token)}`);
    expect(check.status).toBe(200);
    expect(check.body.data).toEqual({ email: 'newcomer@example.test' });

    const mismatch = await client.register({ uid: 'newcomer', mail: 'someone-else@example.test' } as never);
    expect(mismatch.status).toBe(201); // without the token: an ordinary pending registration
    expect(mismatch.body.data.status).toBe('pending');

    const wrongMail = await client.post('/auth/register', {
      uid: 'newcomer2',
      givenName: 'New',
      sn: 'Comer',
      mail: 'other@example.test',
      userPassword: 'correct horse',
      inviteToken: token,
    });
    expect(wrongMail.status).toBe(400);
    expect(wrongMail.body.error.code).toBe('email_mismatch');

    const registered = await client.post('/auth/register', {
      uid: 'newcomer3',
      givenName: 'New',
      sn: 'Comer',
      mail: 'newcomer@example.test',
      userPassword: 'correct horse',
      inviteToken: token,
    });
    expect(registered.status).toBe(201);
    expect(registered.body.data.status).toBe('active');
    expect((await test.client().login('newcomer3')).status).toBe(200);

    const reused = await test.client().post('/auth/register', {
      uid: 'newcomer4',
      givenName: 'New',
      sn: 'Comer',
      mail: 'newcomer@example.test',
      userPassword: 'correct horse',
      inviteToken: token,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('invalid_invite');
    expect((await test.client().get(`/auth/register/invite/${encodeURIComponent(token)}`)).status).toBe(404);
  });

  it('answers 404 invalid_invite for an unknown invitation', async () => {
    const response = await test.client().get('/auth/register/invite/not-a-token');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('invalid_invite');
  });

  it('resets a password through the link in the mail, once', async () => {
    const client = test.client();
    const unknown = await client.post('/auth/password-reset/request', { usernameOrEmail: 'ghost' });
    const known = await client.post('/auth/password-reset/request', {
      usernameOrEmail: 'admin@example.test',
    });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);

    const mail = await sink.next('admin@example.test');
    const link = linkIn(mail, `${PUBLIC_URL}/reset-password/`);
    const token = decodeURIComponent(link.slice(`${PUBLIC_URL}/reset-password/`.length));

    const lookup = await client.get(`/auth/password-reset/${encodeURIComponent(token)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.data).toEqual({ username: 'admin' });

    const path = `/auth/password-reset/${encodeURIComponent(token)}`;
    const mismatch = await client.post(path, {
      password: 'new password 1',
      confirmPassword: 'new password 2',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('mismatch');
    const weak = await client.post(path, { password: 'short', confirmPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.code).toBe('weak_password');
    const missing = await client.post(path, { password: 'only one' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_request');

    const done = await client.post(path, {
      password: 'brand new secret',
      confirmPassword: 'brand new secret',
    });
    expect(done.status).toBe(200);
    // Open sessions of the account end with the password change.
    expect((await admin.get('/session')).status).toBe(401);
    expect((await test.client().login('admin', 'correct horse')).status).toBe(401);
    expect((await test.client().login('admin', 'brand new secret')).status).toBe(200);

    const reuse = await client.post(path, { password: 'another secret', confirmPassword: 'another secret' });
    expect(reuse.status).toBe(404);
    expect(reuse.body.error.code).toBe('invalid_token');
  });

  it('answers 404 invalid_token for an unknown reset token and 400 without usernameOrEmail', async () => {
    const client = test.client();
    expect((await client.get('/auth/password-reset/unknown')).body.error.code).toBe('invalid_token');
    const post = await client.post('/auth/password-reset/unknown', {
      password: 'long enough',
      confirmPassword: 'long enough',
    });
    expect(post.status).toBe(404);
    expect(post.body.error.code).toBe('invalid_token');
    expect((await client.post('/auth/password-reset/request', {})).status).toBe(400);
  });

  it('sends an announcement to every active user', async () => {
    admin = test.client();
    await admin.login('admin', 'brand new secret');
    const response = await admin.post('/users/email-all', {
      subject: 'Maintenance',
      message: 'Tonight at 22:00.',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ sent: 3, failed: 0, recipients: ['admin', 'early', 'newcomer3'] });
    const mail = await sink.next('newcomer@example.test');
    expect(mail.text).toContain('Tonight at 22:00.');
  });
});

// Restoring a backup from the API (as the dashboard does): a preview of what changes, then the project's
// rows become the backup's while its keys stay; uploads of the project's own backup files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMember, startHarness, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ logLevel: 'error' });
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
  await h.client.post('/api/textnodes', {
    url: 'https://shop.test/',
    keys: [{ key: 'Hello' }, { key: 'Goodbye' }, { key: 'Thanks' }],
  });
  const rows = (await h.client.get('/api/translations/all')).body.rows as { id: number }[];
  await h.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
  await h.client.post('/api/translations', {
    lang: 'fr',
    translations: [
      { key: 'Hello', value: 'Bonjour' },
      { key: 'Goodbye', value: 'Au revoir' },
    ],
  });
});
afterAll(async () => h?.stop());

const delivered = async () =>
  ((await h.client.get('/api/translations?lang=fr')).body as { key: string; value: string }[])
    .map((row) => `${row.key}=${row.value}`)
    .sort();

describe('restoring a backup through the API', () => {
  it('previews what a restore changes, then restores the rows and keeps the keys of today', async () => {
    const backup = (await h.client.post('/api/backups')).body.filename as string;
    // After the backup: one translation edited, one phrase deleted, one added, and both keys replaced.
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Hello', value: 'Salut' }],
    });
    const goodbye = (
      (await h.client.get('/api/translations/all?search=Goodbye')).body.rows as { id: number }[]
    )[0]!;
    await h.client.delete(`/api/textnodes/${goodbye.id}`);
    await h.client.post('/api/textnodes', { url: 'https://shop.test/', keys: [{ key: 'New arrivals' }] });
    const oldKey = h.client.defaultHeaders['x-api-key']!;
    const regenerated = await h.client.post('/api/project/regenerate-key');
    h.client.defaultHeaders['x-api-key'] = regenerated.body.api_key;
    const pageKey = (await h.client.post('/api/project/regenerate-page-key')).body.page_key as string;
    const before = await delivered();
    expect(before).toEqual(['Hello=Salut']);

    const preview = await h.client.post(`/api/backups/${backup}/restore?dryRun=true`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      name: 'Default project',
      phrases: { current: 3, restored: 3, added: 1, removed: 1 },
      translations: { current: 1, restored: 2, added: 1, removed: 0, changed: 1 },
      changes: expect.arrayContaining([
        { key: 'Hello', lang: 'fr', current: 'Salut', restored: 'Bonjour' },
        { key: 'Goodbye', lang: 'fr', current: null, restored: 'Au revoir' },
      ]),
    });
    expect(preview.body.changes).toHaveLength(2);
    // A dry run changes nothing.
    expect(await delivered()).toEqual(before);

    // A member who joined after the backup, and an invitation not yet accepted.
    const member = await signedInMember(h, 'translator', ['fr']);
    await h.client.post('/api/members/invites', { email: 'later@example.test', role: 'viewer' });

    const restored = await h.client.post(`/api/backups/${backup}/restore`);
    expect(restored.status).toBe(200);
    // The team is today's too: the member keeps working, the invitation stays.
    expect((await member.client.get('/api/languages')).body).toEqual([{ code: 'fr', name: 'French' }]);
    const team = (await h.client.get('/api/members')).body;
    expect(team.members.map((m: { email: string }) => m.email)).toEqual([member.email]);
    expect(team.invites.map((i: { email: string }) => i.email)).toEqual(['later@example.test']);
    expect(restored.body).toEqual(preview.body);
    expect(await delivered()).toEqual(['Goodbye=Au revoir', 'Hello=Bonjour']);
    expect((await h.client.get('/api/translations/all')).body.total).toBe(3);
    // The keys are today's: the one replaced before the restore does not come back.
    const project = (await h.client.get('/api/project')).body;
    expect(project).toMatchObject({ api_key: regenerated.body.api_key, page_key: pageKey });
    expect((await h.client.get('/api/translations/all', { headers: { 'x-api-key': oldKey } })).status).toBe(
      401,
    );
    // Restoring again changes nothing more.
    const again = await h.client.post(`/api/backups/${backup}/restore?dryRun=true`);
    expect(again.body).toMatchObject({
      phrases: { added: 0, removed: 0 },
      translations: { added: 0, removed: 0, changed: 0 },
      changes: [],
    });
  });

  it("takes an upload of the project's own backup file, and refuses anything else", async () => {
    const made = (await h.client.post('/api/backups')).body.filename as string;
    const content = readFileSync(join(h.config.backup.dir, made));
    const upload = await h.client.post('/api/backups/upload', content, {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(upload.status).toBe(201);
    expect(upload.body).toEqual({
      filename: expect.stringMatching(/^translator-p\d+-.*\.sqlite$/),
      size: content.length,
      created: expect.any(String),
    });
    const listed = (await h.client.get('/api/backups')).body as { filename: string }[];
    expect(listed.map((backup) => backup.filename)).toContain(upload.body.filename);
    const preview = await h.client.post(`/api/backups/${upload.body.filename}/restore?dryRun=true`);
    expect(preview.body.translations).toMatchObject({ added: 0, removed: 0, changed: 0 });

    const other = await h.newProject('Another shop');
    const theirs = await other.client.post('/api/backups/upload', content, {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(theirs.status).toBe(422);
    expect(theirs.body.error).toMatchObject({
      code: 'invalid_backup',
      message: expect.stringContaining('a backup of another project'),
    });
    // A backup damaged in the middle: SQLite's own check finds it.
    const damaged = Buffer.from(content);
    damaged.fill(0x5a, damaged.length - 8192, damaged.length - 4096);
    const broken = await h.client.post('/api/backups/upload', damaged);
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe('invalid_backup');
    const garbage = await h.client.post('/api/backups/upload', Buffer.from('not a database'), {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(garbage.status).toBe(422);
    expect(garbage.body.error.code).toBe('invalid_backup');
    expect(JSON.stringify(garbage.body)).not.toContain(h.config.backup.dir);
    // Nothing of the refused uploads is left behind.
    expect((await h.client.get('/api/backups')).body).toHaveLength(listed.length);
    expect((await other.client.get('/api/backups')).body).toEqual([]);
  });

  it('stops an upload larger than TRANSLATOR_BACKUP_UPLOAD_MAX_MB (413), keeping nothing', async () => {
    const small = await startHarness({ backup: { uploadMaxBytes: 2 ** 20 } });
    try {
      const made = (await small.client.post('/api/backups')).body.filename as string;
      const big = Buffer.concat([readFileSync(join(small.config.backup.dir, made)), Buffer.alloc(2 ** 20)]);
      const refused = await small.client.post('/api/backups/upload', big);
      expect(refused.status).toBe(413);
      expect(refused.body.error).toMatchObject({
        code: 'payload_too_large',
        message: 'The file is larger than 1 MiB.',
      });
      expect((await small.client.get('/api/backups')).body).toHaveLength(1);
    } finally {
      await small.stop();
    }
  });

  it('refuses a name that is not a backup (400), and another project’s or a missing backup (404)', async () => {
    expect((await h.client.post('/api/backups/..%2Fsecret/restore?dryRun=true')).status).toBe(400);
    const other = await h.newProject('Third shop');
    const theirs = (await other.client.post('/api/backups')).body.filename as string;
    expect((await h.client.post(`/api/backups/${theirs}/restore?dryRun=true`)).status).toBe(404);
    const own = (await h.client.get('/api/project')).body.id as number;
    const missing = `translator-p${own}-2000-01-01T00-00-00-000Z.sqlite`;
    expect((await h.client.post(`/api/backups/${missing}/restore`)).status).toBe(404);
  });
});

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { buildTranslator } from '../src/app.ts';
import { restoreSnapshot } from '../src/backups/restore.ts';
import { startHarness, testConfig, type Harness } from './helpers.ts';
import { SQLite } from '@app/server-kit';

let h: Harness;
let fake: FakeOpenAI;
let backupDir: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  h = await startHarness({ backup: { intervalHours: 24, keep: 3 }, ai: { baseUrl: fake.baseUrl } });
  backupDir = h.config.backup.dir;
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr', 'de'], translationProviderApiKey: 'sk-test' },
  });
  await h.client.post('/api/textnodes', {
    keys: [{ key: 'Hello' }, { key: 'Cart has 2 items' }],
    url: 'https://a.test/',
  });
  const rows = (await h.client.get('/api/translations/all')).body.rows as { id: number }[];
  await h.client.patch('/api/textnodes/status', { ids: rows.map((r) => r.id), status: 'approved' });
  await h.client.post('/api/translations', {
    lang: 'fr',
    translations: [{ key: 'Hello', value: 'Bonjour' }],
  });
  const other = await h.newProject('Someone else');
  await other.client.post('/api/textnodes', {
    keys: [{ key: 'Secret of another project' }],
    url: 'https://b.test/',
  });
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

function readBackup(file: string) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return {
      projects: db.prepare('select id, name from projects').all() as { id: number; name: string }[],
      phrases: db.prepare('select key from phrases order by key').all() as { key: string }[],
      translations: db.prepare('select lang, value from translations').all() as {
        lang: string;
        value: string;
      }[],
      aiJobs: db.prepare('select id, status, total, completed from ai_jobs order by created_at').all() as {
        id: string;
        status: string;
        total: number;
        completed: number;
      }[],
      aiJobItems: db
        .prepare('select job_id, phrase_id, state from ai_job_items order by job_id, phrase_id')
        .all(),
      integrity: (db.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check,
    };
  } finally {
    db.close();
  }
}

describe('backups', () => {
  it('POST /api/backups writes a valid SQLite file holding this project only; GET lists it', async () => {
    const res = await h.client.post('/api/backups');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      filename: expect.stringMatching(/^translator-p\d+-.+\.sqlite$/),
      size: expect.any(Number),
      created: expect.any(String),
    });
    expect(res.body.size).toBeGreaterThan(0);
    const content = readBackup(join(backupDir, res.body.filename));
    expect(content.integrity).toBe('ok');
    expect(content.projects).toHaveLength(1);
    expect(content.phrases.map((p) => p.key)).toEqual(['Cart has {{number:0}} items', 'Hello']);
    expect(content.translations).toEqual([{ lang: 'fr', value: 'Bonjour' }]);
    const list = await h.client.get('/api/backups');
    expect(list.status).toBe(200);
    expect(list.body[0]).toEqual(res.body);
    const other = await h.newProject('Lister');
    expect((await other.client.get('/api/backups')).body).toEqual([]);
  });

  it('a backup restores: a translator opened on the file serves the same translations', async () => {
    const { body } = await h.client.post('/api/backups');
    const restoredDir = join(h.database.dataDir, 'restored');
    mkdirSync(restoredDir, { recursive: true });
    const config = testConfig(h.database, {
      databaseUrl: `sqlite:${join(backupDir, body.filename)}`,
      databaseSchema: undefined,
      dataDir: restoredDir,
    });
    const restored = await buildTranslator(config, { workers: false });
    try {
      const url = await restored.listen();
      const client = new TestClient(url);
      client.defaultHeaders['x-api-key'] = h.key;
      const res = await client.get('/api/translations?lang=fr');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ key: 'Hello', context: '', value: 'Bonjour' }]);
      expect((await client.get('/api/analytics')).body.totalPhrases).toBe(2);
    } finally {
      await restored.close();
    }
  });

  it('GET /api/backup downloads a consistent snapshot and leaves no temporary file', async () => {
    const res = await fetch(`${h.url}/api/backup`, { headers: { 'x-api-key': h.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="translator-p\d+-.+\.sqlite"$/,
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    const file = join(h.database.dataDir, 'download.sqlite');
    writeFileSync(file, bytes);
    expect(readBackup(file).translations).toEqual([{ lang: 'fr', value: 'Bonjour' }]);
    // The temporary file goes when the download stream closes, just after the last byte was sent.
    await expect.poll(() => readdirSync(backupDir).filter((name) => name.startsWith('.'))).toEqual([]);
    expect((await h.anonymous.get('/api/backup')).status).toBe(401);
  });

  it('GET /api/backups/:filename downloads a stored backup as an attachment; unknown names are 404', async () => {
    const { body } = await h.client.post('/api/backups');
    const res = await fetch(`${h.url}/api/backups/${body.filename}`, { headers: { 'x-api-key': h.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${body.filename}"`);
    expect(res.headers.get('content-length')).toBe(String(body.size));
    expect(res.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(readFileSync(join(backupDir, body.filename)))).toBe(true);

    const missing = body.filename.replace(
      /\d{3}Z/,
      (ms: string) => `${(Number(ms.slice(0, 3)) + 1) % 1000}`.padStart(3, '0') + 'Z',
    );
    expect(missing).not.toBe(body.filename);
    const unknown = await h.client.get(`/api/backups/${missing}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await h.anonymous.get(`/api/backups/${body.filename}`)).status).toBe(401);
  });

  it('DELETE /api/backups/:filename deletes one backup; unknown names are 404', async () => {
    const { body } = await h.client.post('/api/backups');
    const res = await h.client.delete(`/api/backups/${body.filename}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(existsSync(join(backupDir, body.filename))).toBe(false);
    expect((await h.client.delete(`/api/backups/${body.filename}`)).status).toBe(404);
  });

  it('refuses path traversal and foreign backups, deleting nothing', async () => {
    const { body } = await h.client.post('/api/backups');
    const victim = join(h.database.dataDir, 'victim.sqlite');
    writeFileSync(victim, 'keep me');
    writeFileSync(join(backupDir, 'notes.txt'), 'keep me too');
    const before = readdirSync(backupDir).sort();
    const attempts = [
      '..%2Fvictim.sqlite',
      '..%2F..%2Fvictim.sqlite',
      '%2e%2e%2fvictim.sqlite',
      `..%2F${body.filename}`,
      `${body.filename}%2F..%2F..%2Fvictim.sqlite`,
      'notes.txt',
      '%2Fetc%2Fpasswd',
      `${body.filename}%00.txt`,
      encodeURIComponent(join(backupDir, body.filename)),
      '..',
    ];
    for (const attempt of attempts) {
      for (const method of ['GET', 'DELETE']) {
        const res = await h.client.request(method, `/api/backups/${attempt}`);
        expect([400, 404], `${method} ${attempt}`).toContain(res.status);
        expect(res.text).not.toContain('keep me');
        // %00 is refused before any route (invalid_request); every other attempt by the name rule.
        if (res.status === 400)
          expect(res.body.error.code).toBe(attempt.includes('%00') ? 'invalid_request' : 'invalid_filename');
      }
    }
    const other = await h.newProject('Deleter');
    for (const method of ['GET', 'DELETE']) {
      const foreign = await other.client.request(method, `/api/backups/${body.filename}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('not_found');
    }
    expect(readdirSync(backupDir).sort()).toEqual(before);
    expect(existsSync(victim)).toBe(true);
  });

  it('a backup holds the AI jobs and their items; restored after a wipe, they are back', async () => {
    const ids = ((await h.client.get('/api/translations/all?lang=de')).body.rows as { id: number }[])
      .map((r) => r.id)
      .sort((a, b) => a - b);
    const done = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'de' });
    expect(done.status).toBe(202);
    await waitForJob(done.body.jobId, (status) => status === 'completed');
    // A second job is caught mid-run by the backup: its items are what a restore needs to resume it.
    fake.set({ latencyMs: 1500 });
    const midway = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    await waitForJob(midway.body.jobId, (status) => status === 'running');
    const term = await h.client.post('/api/glossary', { term: 'bread', lang: 'fr', translation: 'pain' });
    expect(term.status).toBe(201);
    const { body } = await h.client.post('/api/backups');
    const file = join(backupDir, body.filename);
    const content = readBackup(file);
    expect(content.aiJobs).toEqual([
      { id: done.body.jobId, status: 'completed', total: 2, completed: 2 },
      { id: midway.body.jobId, status: 'running', total: 2, completed: 0 },
    ]);
    expect(content.aiJobItems).toEqual(
      ids.map((phrase_id) => ({ job_id: midway.body.jobId, phrase_id, state: 'pending' })),
    );
    expect((await h.client.delete(`/api/ai-jobs/${midway.body.jobId}`)).status).toBe(200);
    while (fake.inFlight() > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    fake.set({ latencyMs: 0 });

    // Wipe: the project goes with every row of it (phrases, translations, prompts, jobs, items).
    const projectId = (await h.client.get('/api/project')).body.id as number;
    const { db } = h.translator.ctx;
    await db.deleteFrom('projects').where('id', '=', projectId).execute();
    expect(await db.selectFrom('ai_jobs').select('id').where('project_id', '=', projectId).execute()).toEqual(
      [],
    );

    const restored = await restoreSnapshot(h.translator.ctx, file, { replace: false });
    expect(restored).toMatchObject({ projectId, replaced: null });
    expect(restored.rows).toMatchObject({
      projects: 1,
      phrases: 2,
      prompts: 1,
      ai_jobs: 2,
      ai_job_items: 2,
      glossary_terms: 1,
      // "Hello" = "Bonjour", written by a person.
      translation_memory: 1,
    });
    const memory = await h.client.get('/api/translations/memory?lang=fr&text=Hello');
    expect(memory.body.matches).toMatchObject([{ source: 'Hello', value: 'Bonjour', score: 100 }]);
    expect((await h.client.get('/api/glossary')).body).toEqual([term.body]);
    expect((await h.client.get(`/api/ai-jobs/${done.body.jobId}`)).body).toMatchObject({
      status: 'completed',
      completed: 2,
    });
    // The job that was running comes back pending, and a worker finishes it.
    const resumed = await waitForJob(midway.body.jobId, (status) => status === 'completed');
    expect(resumed).toMatchObject({ total: 2, completed: 2, failed: 0 });
    const log = (await h.client.get('/api/ai-jobs/log')).body as { id: string }[];
    expect(log.map((job) => job.id).sort()).toEqual([done.body.jobId, midway.body.jobId].sort());
    expect((await h.client.get('/api/translations/all?lang=de&translated=yes')).body.total).toBe(2);
    expect((await h.client.get('/api/translations/all?lang=fr&translated=yes')).body.total).toBe(2);

    // Over the live project only on request; then nothing doubles and the newer rows are gone.
    await expect(restoreSnapshot(h.translator.ctx, file, { replace: false })).rejects.toThrow(
      /exists in this database; run again with --replace/,
    );
    expect((await h.client.get('/api/ai-jobs/log')).body).toHaveLength(2);
    const again = await restoreSnapshot(h.translator.ctx, file, { replace: true });
    expect(again).toMatchObject({ replaced: restored.name, rows: restored.rows });
    expect((await h.client.get('/api/analytics')).body.totalPhrases).toBe(2);
    expect((await h.client.get('/api/ai-jobs/log')).body).toHaveLength(1);
    await waitForJob(midway.body.jobId, (status) => status === 'completed');
  });

  it("refuses a backup whose rows point at another project's phrases, leaving the live project as it was", async () => {
    const { body } = await h.client.post('/api/backups');
    const { db } = h.translator.ctx;
    const secret = await db
      .selectFrom('phrases')
      .select('id')
      .where('key', '=', 'Secret of another project')
      .executeTakeFirstOrThrow();
    const before = (await h.client.get('/api/translations/all?lang=fr')).body;
    // An edited (or damaged) file: the project's translation now names the other project's phrase.
    const file = join(h.database.dataDir, 'edited.sqlite');
    writeFileSync(file, readFileSync(join(backupDir, body.filename)));
    const edited = new SQLite(file);
    edited.pragma('foreign_keys = OFF');
    edited
      .prepare('update translations set phrase_id = ? where id = (select min(id) from translations)')
      .run(secret.id);
    edited.close();

    await expect(restoreSnapshot(h.translator.ctx, file, { replace: true })).rejects.toThrow(
      /another project/,
    );
    expect((await h.client.get('/api/translations/all?lang=fr')).body).toEqual(before);
    const leaked = await db
      .selectFrom('translations')
      .select('id')
      .where('phrase_id', '=', secret.id)
      .execute();
    expect(leaked).toEqual([]);
  });

  it('restores a backup made before the page keys (schema 001): a copy is migrated, the file is left as it was', async () => {
    const { body } = await h.client.post('/api/backups');
    const file = join(h.database.dataDir, 'before-page-keys.sqlite');
    writeFileSync(file, readFileSync(join(backupDir, body.filename)));
    const old = new SQLite(file);
    old.exec(`drop index projects_page_key_uq;
      alter table projects drop column page_key;
      alter table projects drop column full_key_origin;
      alter table projects drop column full_key_origin_at;
      drop table translation_history;
      drop table glossary_terms;
      drop table translation_memory;
      drop table project_invites;
      drop table project_members;
      drop table account_sessions;
      drop table accounts;
      alter table ai_jobs drop column memory_filled;
      alter table ai_jobs drop column memory_characters;
      alter table translations drop column state;
      alter table translations drop column suggestion;
      alter table translations drop column outdated_from;
      alter table phrases drop column slot_texts;
      drop table phrase_screenshots;
      delete from translator_migration where name > '001_initial';`);
    old.close();
    const before = (await h.client.get('/api/translations/all?lang=fr')).body as {
      rows: Array<{ state: string | null }>;
    };
    const restored = await restoreSnapshot(h.translator.ctx, file, { replace: true });
    expect(restored.rows.phrases).toBe(2);
    // A backup from before translation states: its translations come back as people's work, no AI suggestion.
    expect((await h.client.get('/api/translations/all?lang=fr')).body).toEqual({
      ...before,
      rows: before.rows.map((row) => ({ ...row, state: row.state && 'human', suggestion: null })),
    });
    expect((await h.client.get('/api/project')).body.page_key).toMatch(/^tpk_/);
    // The upgrade seeds the translation memory with the translations people made.
    const memory = await h.client.get('/api/translations/memory?lang=fr&text=Hello');
    expect(memory.body.matches).toMatchObject([{ source: 'Hello', value: 'Bonjour', state: 'human' }]);
    const untouched = new SQLite(file, { readonly: true });
    expect(untouched.prepare('select count(*) as n from translator_migration').get()).toEqual({ n: 1 });
    untouched.close();
  });

  it('makes daily automatic backups and keeps only the newest ones', async () => {
    const projectId = (await h.client.get('/api/project')).body.id;
    const manual = await h.client.post('/api/backups');
    const day = 24 * 3_600_000;
    const start = Date.now();
    expect(await h.translator.services.backups.runDue(start)).toBeGreaterThan(0);
    expect(await h.translator.services.backups.runDue(start + 1000)).toBe(0);
    for (let i = 1; i <= 4; i++) {
      await h.translator.services.backups.runDue(start + i * day);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const list = (await h.client.get('/api/backups')).body as { filename: string }[];
    const autos = list.filter((b) => b.filename.endsWith('-auto.sqlite'));
    expect(autos).toHaveLength(h.config.backup.keep);
    expect(list.map((b) => b.filename)).toContain(manual.body.filename);
    expect(autos.every((b) => b.filename.startsWith(`translator-p${projectId}-`))).toBe(true);
  });
});

describe('manual backups are capped', () => {
  it('one manual backup per project per interval: the next is 429 with Retry-After', async () => {
    const limited = await startHarness({ backup: { manualIntervalSeconds: 60 } });
    try {
      const first = await limited.client.post('/api/backups');
      expect(first.status).toBe(201);
      const second = await limited.client.post('/api/backups');
      expect(second.status).toBe(429);
      expect(second.body).toEqual({
        error: { code: 'rate_limited', message: expect.stringMatching(/one manual backup .* 60 seconds/) },
      });
      const retryAfter = Number(second.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await limited.client.get('/api/backups')).body).toHaveLength(1);
      // Another project has its own allowance (two calls at once make one backup); automatic backups
      // are not counted.
      const other = await limited.newProject('Neighbour');
      const both = await Promise.all([other.client.post('/api/backups'), other.client.post('/api/backups')]);
      expect(both.map((res) => res.status).sort()).toEqual([201, 429]);
      await limited.translator.services.backups.runDue();
      expect((await limited.client.post('/api/backups')).status).toBe(429);
    } finally {
      await limited.stop();
    }
  });

  it('keeps the newest manual backups of a project; automatic ones and other projects are left alone', async () => {
    const pruned = await startHarness({ backup: { manualKeep: 2, keep: 5 } });
    try {
      await pruned.translator.services.backups.runDue();
      const other = await pruned.newProject('Neighbour');
      const theirs = (await other.client.post('/api/backups')).body.filename as string;
      const made: string[] = [];
      for (let i = 0; i < 4; i++) made.push((await pruned.client.post('/api/backups')).body.filename);
      const names = ((await pruned.client.get('/api/backups')).body as { filename: string }[]).map(
        (b) => b.filename,
      );
      const manual = names.filter((name) => !name.endsWith('-auto.sqlite'));
      expect(manual.sort()).toEqual(made.slice(2).sort());
      expect(names.filter((name) => name.endsWith('-auto.sqlite'))).toHaveLength(1);
      expect(readdirSync(pruned.config.backup.dir)).toContain(theirs);
    } finally {
      await pruned.stop();
    }
  });
});

async function waitForJob(jobId: string, done: (status: string) => boolean) {
  let job: { status: string } = { status: 'unknown' };
  for (const start = Date.now(); Date.now() - start < 15_000;) {
    job = (await h.client.get(`/api/ai-jobs/${jobId}`)).body as { status: string };
    if (done(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} stayed ${job.status}`);
}

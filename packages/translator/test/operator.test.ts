import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { buildTranslator, type Translator } from '../src/app.ts';
import { testConfig } from './helpers.ts';

// The operator commands of src/main.ts, run as processes on a database of their own: a SQLite file, or
// with TEST_DATABASE_URL a fresh PostgreSQL database (a new one stands for a wiped server).
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const pgUrl = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'translator-operator-'));
const databases: string[] = [];
const SECRET = 'test-secret-key';

afterAll(async () => {
  if (pgUrl && databases.length) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<string> {
  const name = `op_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  if (!pgUrl) return `sqlite:${join(dataDir, `${name}.db`)}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `translator <args>` to its end. */
function run(databaseUrl: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      TRANSLATOR_DATABASE_URL: databaseUrl,
      SECRET_KEY: SECRET,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
  child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** The translator, in this process, on the same database (no workers, so AI jobs stay as they are). */
async function serveOn(databaseUrl: string): Promise<Translator & { url: string }> {
  const translator = await buildTranslator(
    testConfig(
      { url: databaseUrl, dataDir, drop: async () => {} },
      { databaseSchema: undefined, secretKey: SECRET },
    ),
    { workers: false },
  );
  return Object.assign(translator, { url: await translator.listen() });
}

const client = (url: string, key: string) => {
  const c = new TestClient(url);
  c.defaultHeaders['x-api-key'] = key;
  return c;
};

// Each command is a process start (tsx compiles on the fly): a few seconds each on a loaded machine.
describe('translator project create / list / key', { timeout: 90_000 }, () => {
  it('creates projects, printing each key once; lists ids and names without keys; prints one project’s keys', async () => {
    const db = await freshDatabase();
    const empty = await run(db, ['project', 'list']);
    expect(empty).toMatchObject({ code: 0, stdout: expect.stringMatching(/^No projects yet/) });

    const shop = await run(db, ['project', 'create', '--name', 'Shop']);
    expect(shop.code).toBe(0);
    expect(shop.stdout).toMatch(/^Created project \d+ \(Shop\)\.\nAPI key: \S{24}\n/);
    const shopKey = /API key: (\S{24})/.exec(shop.stdout)![1]!;
    const blog = await run(db, ['project', 'create', '--name', '  Blog and news ']);
    const blogKey = /API key: (\S{24})/.exec(blog.stdout)![1]!;
    expect(blogKey).not.toBe(shopKey);

    const list = await run(db, ['project', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\s*ID\s+CREATED\s+NAME$/);
    expect(lines.slice(1).map((line) => line.replace(/\s+\S+Z\s+/, ' | ').trim())).toEqual([
      '1 | Shop',
      '2 | Blog and news',
    ]);
    expect(list.stdout).not.toContain(shopKey);
    expect(list.stdout).not.toContain(blogKey);

    // `project key <id>` prints a project's key again, for the operator.
    const shown = await run(db, ['project', 'key', '1']);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain(`API key: ${shopKey}\n`);
    expect(shown.stdout).toMatch(/\nPage key: tpk_[A-Za-z0-9_-]{24} /);
    expect(shown.stdout).not.toContain(blogKey);
    const unknown = await run(db, ['project', 'key', '99']);
    expect(unknown).toMatchObject({ code: 1, stderr: 'translator: no project has the id 99\n' });
    const notAnId = await run(db, ['project', 'key', 'shop']);
    expect(notAnId).toMatchObject({ code: 1, stderr: expect.stringContaining('a project id such as 1') });

    // The keys are real: each opens its own project; the server keeps the first as the default.
    const translator = await serveOn(db);
    try {
      expect((await client(translator.url, blogKey).get('/api/project')).body).toMatchObject({
        id: 2,
        name: 'Blog and news',
        api_key: blogKey,
      });
      expect((await client(translator.url, shopKey).get('/api/prompts')).body).toHaveLength(1);
      expect(translator.defaultProject).toMatchObject({ created: false, project: { name: 'Shop' } });
    } finally {
      await translator.close();
    }
  });

  it('invites an owner to the dashboard and prints the link, which opens the project', async () => {
    const db = await freshDatabase();
    await run(db, ['project', 'create', '--name', 'Shop']);
    const invited = await run(db, ['project', 'invite', '1', '--email', 'Owner@Example.test'], {
      TRANSLATOR_PUBLIC_URL: 'https://translate.example.test',
    });
    expect(invited).toMatchObject({ code: 0, stderr: '' });
    expect(invited.stdout).toMatch(/^Invited owner@example\.test as owner of project 1, until \S+Z\.\n/);
    const token = /Link: https:\/\/translate\.example\.test\/invite\/(\S+)\n/.exec(invited.stdout)![1]!;
    expect(await run(db, ['project', 'invite', '7', '--email', 'a@example.test'])).toMatchObject({
      code: 1,
      stderr: 'translator: no project has the id 7\n',
    });

    const translator = await serveOn(db);
    try {
      const browser = new TestClient(translator.url);
      const accepted = await browser.post(`/api/invites/${token}/accept`, {
        name: 'Owner',
        password: 'correct horse battery',
      });
      expect(accepted.body.projects).toEqual([
        {
          id: 1,
          name: 'Shop',
          role: 'owner',
          languages: [],
          access: ['read', 'translate', 'review', 'manage', 'own'],
        },
      ]);
      const team = await browser.get('/api/members', { headers: { 'x-project-id': '1' } });
      expect(team.body.members).toEqual([
        {
          accountId: accepted.body.account.id,
          email: 'owner@example.test',
          name: 'Owner',
          role: 'owner',
          languages: [],
        },
      ]);
    } finally {
      await translator.close();
    }
  });

  it('refuses a missing or blank name', async () => {
    const db = await freshDatabase();
    const missing = await run(db, ['project', 'create']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--name <name>'");
    const blank = await run(db, ['project', 'create', '--name', '   ']);
    expect(blank).toMatchObject({ code: 1, stderr: 'translator: --name must be 1 to 200 characters\n' });
    expect((await run(db, ['project', 'list'])).stdout).toMatch(/^No projects yet/);
  });
});

describe('translator backup restore', { timeout: 90_000 }, () => {
  it('loads a backup into a wiped (fresh) database: phrases, translations and AI jobs are back', async () => {
    const source = await freshDatabase();
    const key = /API key: (\S{24})/.exec(
      (await run(source, ['project', 'create', '--name', 'Shop'])).stdout,
    )![1]!;
    const translator = await serveOn(source);
    let file: string;
    let jobId: string;
    try {
      const api = client(translator.url, key);
      await api.patch('/api/project/settings', {
        settings: { languages: ['fr'], translationProviderApiKey: 'sk-test' },
      });
      await api.post('/api/textnodes', {
        keys: [{ key: 'Hello' }, { key: 'Goodbye' }],
        url: 'https://a.test/',
      });
      const ids = ((await api.get('/api/translations/all')).body.rows as { id: number }[]).map((r) => r.id);
      await api.patch('/api/textnodes/status', { ids, status: 'approved' });
      await api.post('/api/translations', { lang: 'fr', translations: [{ key: 'Hello', value: 'Bonjour' }] });
      jobId = (await api.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' })).body.jobId;
      const backup = await api.post('/api/backups');
      file = join(translator.ctx.config.backup.dir, backup.body.filename);
    } finally {
      await translator.close();
    }

    const wrongSecret = await run(await freshDatabase(), ['backup', 'restore', file], {
      SECRET_KEY: 'other',
    });
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stderr).toContain('another SECRET_KEY');

    const target = await freshDatabase();
    const restored = await run(target, ['backup', 'restore', file]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(
      'Restored project 1 (Shop) from ' +
        `${file}: 2 phrases, 1 translations, 1 prompts, 1 AI jobs (2 items).`,
    );

    const after = await serveOn(target);
    try {
      const api = client(after.url, key);
      expect((await api.get('/api/translations?lang=fr')).body).toEqual([
        { key: 'Hello', context: '', value: 'Bonjour' },
      ]);
      expect((await api.get('/api/ai-jobs')).body.jobs).toEqual([
        expect.objectContaining({ id: jobId, status: 'pending', total: 2, completed: 0 }),
      ]);
      // New rows get fresh ids (PostgreSQL's sequences were moved past the restored ones).
      const added = await api.post('/api/textnodes', { keys: [{ key: 'Welcome' }], url: 'https://a.test/' });
      expect(added.status).toBe(200);
      expect((await api.get('/api/analytics')).body.totalPhrases).toBe(3);
    } finally {
      await after.close();
    }
    const second = await run(target, ['project', 'create', '--name', 'Blog']);
    expect(second.stdout).toMatch(/^Created project 2 \(Blog\)/);
    const refused = await run(target, ['backup', 'restore', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/project 1 \(Shop\) exists in this database; run again with --replace/);
    const again = await run(target, ['backup', 'restore', file, '--replace']);
    expect(again.stdout).toMatch(/^Replaced project 1 \(Shop\) with the backup's project \(Shop\)/);
  });

  it('refuses a file that is not a translator backup', async () => {
    const res = await run(await freshDatabase(), ['backup', 'restore', main]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^translator: (not a translator backup|cannot open)/);
  });
});

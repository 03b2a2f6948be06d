// A project's backup holds its own data and its team by e-mail and role, never the deployment's accounts,
// their password hashes or sessions (security review, issue 32, finding 4); a restore gives the team back
// by e-mail, and ignores the accounts of files made before.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLite, sha256Hex } from '@app/server-kit';
import type { TestClient } from '@app/server-kit/testing';
import { restoreSnapshot } from '../src/backups/restore.ts';
import { ScreenshotsRepository } from '../src/screenshots/screenshots-repository.ts';
import { ONE_PIXEL_PNG, registerApproved, signedInMember, startHarness, type Harness } from './helpers.ts';

type Project = { client: TestClient; key: string; id: number };
type Member = Awaited<ReturnType<typeof signedInMember>>;

let h: Harness;
let alpha: Project;
let beta: Project;
const team = {} as Record<'owner' | 'manager' | 'translator' | 'betaOwner', Member>;
let inviteToken: string;

beforeAll(async () => {
  h = await startHarness({ logLevel: 'error' });
  alpha = await h.newProject('Alpha shop');
  beta = await h.newProject('Beta shop');
  for (const project of [alpha, beta]) {
    await project.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
  }
  const ids = await registerApproved(alpha.client, ['Alpha hello']);
  await alpha.client.post('/api/translations', {
    lang: 'fr',
    translations: [{ key: 'Alpha hello', value: 'Alpha bonjour' }],
  });
  await registerApproved(beta.client, ['Beta secret']);
  team.owner = await signedInMember(h, 'owner', [], alpha);
  team.manager = await signedInMember(h, 'manager', [], alpha);
  team.translator = await signedInMember(h, 'translator', ['fr'], alpha);
  team.betaOwner = await signedInMember(h, 'owner', [], beta);
  const invite = await alpha.client.post('/api/members/invites', {
    email: 'pending.alpha@example.test',
    role: 'reviewer',
    languages: ['de'],
  });
  inviteToken = (invite.body.path as string).split('/').at(-1)!;
  await new ScreenshotsRepository(h.translator.ctx.db).save(
    alpha.id,
    ids['Alpha hello']!,
    'https://shop.test/',
    {
      png: ONE_PIXEL_PNG,
      width: 1,
      height: 1,
    },
  );
});
afterAll(async () => h?.stop());

const download = async (client: TestClient, path: string) => {
  const response = await fetch(`${h.url}/api${path}`, { headers: headersOf(client) });
  expect(response.status, path).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};
const headersOf = (client: TestClient): Record<string, string> => {
  const cookie = client.cookie('translator_session');
  return { ...client.defaultHeaders, ...(cookie ? { cookie: `translator_session=${cookie}` } : {}) };
};

function rowsOf(bytes: Buffer, query: string) {
  const file = join(h.database.dataDir, `read-${Math.random().toString(36).slice(2)}.sqlite`);
  writeFileSync(file, bytes);
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare(query).all();
  } finally {
    db.close();
  }
}

/** What nobody but the deployment may hold: password hashes, sessions, CSRF and invitation tokens. */
const secretsOf = () => [
  '$argon2id',
  team.betaOwner.email,
  'Beta secret',
  'Beta shop',
  inviteToken,
  sha256Hex(inviteToken),
  ...Object.values(team).map((member) => member.client.defaultHeaders['x-csrf-token']!),
  ...Object.values(team).map((member) => member.client.cookie('translator_session')!),
  ...Object.values(team).map((member) => sha256Hex(member.client.cookie('translator_session')!)),
];

/** A file as backups were written before the team section: the deployment's accounts and sessions in it. */
async function legacyFile(bytes: Buffer): Promise<{ file: string; intruder: string; cookie: string }> {
  const file = join(h.database.dataDir, `legacy-${Math.random().toString(36).slice(2)}.sqlite`);
  writeFileSync(file, bytes);
  const { db } = h.translator.ctx;
  const accounts = await db.selectFrom('accounts').selectAll().execute();
  const sessions = await db.selectFrom('account_sessions').selectAll().execute();
  const members = await db
    .selectFrom('project_members')
    .selectAll()
    .where('project_id', '=', alpha.id)
    .execute();
  const legacy = new SQLite(file);
  const insert = (table: string, row: Record<string, unknown>) =>
    legacy
      .prepare(
        `insert into ${table} (${Object.keys(row).join(', ')}) values (${Object.keys(row)
          .map(() => '?')
          .join(', ')})`,
      )
      .run(...Object.values(row));
  const hash = accounts.find((account) => account.password_hash)!.password_hash;
  const intruder = 'intruder@example.test';
  const cookie = 'intruder-session-cookie-value';
  for (const account of accounts) insert('accounts', account);
  insert('accounts', {
    id: 990_001,
    email: intruder,
    name: 'Intruder',
    password_hash: hash,
    created_at: '2026-01-01T00:00:00.000Z',
  });
  for (const session of sessions) insert('account_sessions', session);
  insert('account_sessions', {
    id_hash: sha256Hex(cookie),
    account_id: 990_001,
    csrf_token: 'intruder-csrf',
    id_token: null,
    expires_at: Date.now() + 86_400_000,
    created_at: '2026-01-01T00:00:00.000Z',
  });
  for (const member of members) insert('project_members', member);
  insert('project_members', {
    project_id: alpha.id,
    account_id: 990_001,
    role: 'owner',
    languages: '[]',
    created_at: '2026-01-01T00:00:00.000Z',
  });
  legacy.exec('drop table if exists backup_team');
  legacy.pragma('user_version = 0');
  legacy.close();
  return { file, intruder, cookie };
}

const teamOf = async (project: Project) => {
  const body = (await project.client.get('/api/members')).body as {
    members: { email: string; role: string; languages: string[] }[];
    invites: { email: string; role: string; languages: string[] }[];
  };
  return {
    members: body.members.map(({ email, role, languages }) => ({ email, role, languages })),
    invites: body.invites.map(({ email, role, languages }) => ({ email, role, languages })),
  };
};

describe('what a backup holds of the team', () => {
  it("holds the project's members and invitations by e-mail and role, and no account, hash, session, token, screenshot or other project's row", async () => {
    const made = await team.manager.client.post('/api/backups');
    expect(made.status).toBe(201);
    const files = [
      await download(team.manager.client, `/backups/${made.body.filename}`),
      await download(team.manager.client, '/backup'),
      await download(alpha.client, '/backup'),
    ];
    for (const bytes of files) {
      const text = bytes.toString('latin1');
      for (const secret of secretsOf()) expect(text.includes(secret), secret).toBe(false);
      for (const table of [
        'accounts',
        'account_sessions',
        'project_members',
        'project_invites',
        'phrase_screenshots',
      ])
        expect(rowsOf(bytes, `select count(*) as n from ${table}`), table).toEqual([{ n: 0 }]);
      expect(rowsOf(bytes, 'select id from projects')).toEqual([{ id: alpha.id }]);
      expect(rowsOf(bytes, 'select email, role, languages, invited from backup_team order by email')).toEqual(
        [
          { email: team.manager.email, role: 'manager', languages: '[]', invited: 0 },
          { email: team.owner.email, role: 'owner', languages: '[]', invited: 0 },
          { email: 'pending.alpha@example.test', role: 'reviewer', languages: '["de"]', invited: 1 },
          { email: team.translator.email, role: 'translator', languages: '["fr"]', invited: 0 },
        ].sort((a, b) => a.email.localeCompare(b.email)),
      );
      expect(rowsOf(bytes, 'pragma user_version')).toEqual([{ user_version: 2 }]);
    }
  });
});

describe('restoring the team', () => {
  it('a restore into a database without the project gives members back to their accounts by e-mail and invites the rest', async () => {
    const before = await teamOf(alpha);
    const { body } = await alpha.client.post('/api/backups');
    const file = join(h.config.backup.dir, body.filename);
    const { db } = h.translator.ctx;
    // The translator's account is gone from this deployment: they come back as an invitation.
    await db.deleteFrom('accounts').where('id', '=', team.translator.accountId).execute();
    await db.deleteFrom('projects').where('id', '=', alpha.id).execute();
    const accounts = await db.selectFrom('accounts').select('email').orderBy('email').execute();

    const restored = await restoreSnapshot(h.translator.ctx, file, { replace: false });
    expect(restored.team).toEqual({
      members: 2,
      invitations: [
        { email: 'pending.alpha@example.test', path: expect.stringMatching(/^\/invite\/.+/) },
        { email: team.translator.email, path: expect.stringMatching(/^\/invite\/.+/) },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    });
    expect(await db.selectFrom('accounts').select('email').orderBy('email').execute()).toEqual(accounts);
    expect(await teamOf(alpha)).toEqual({
      members: before.members.filter((member) => member.email !== team.translator.email),
      invites: [
        ...before.invites,
        { email: team.translator.email, role: 'translator', languages: ['fr'] },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    });
    // The owner's session works on the project again; the translator's new link names their old role.
    expect((await team.owner.client.get('/api/languages')).status).toBe(200);
    const link = restored.team.invitations.find((invite) => invite.email === team.translator.email)!;
    const invitation = await h.anonymous.get(`/api${link.path.replace('/invite/', '/invites/')}`);
    expect(invitation.body).toMatchObject({
      email: team.translator.email,
      role: 'translator',
      languages: ['fr'],
    });
    // The old invitation link is not among them: a restore makes new links.
    expect((await h.anonymous.get(`/api/invites/${inviteToken}`)).status).toBe(404);
  });

  it('a restore refused after it wrote rows leaves nothing behind: no project, no member, no invitation', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const { db } = h.translator.ctx;
    const betaPhrase = await db
      .selectFrom('phrases')
      .select('id')
      .where('project_id', '=', beta.id)
      .executeTakeFirstOrThrow();
    const file = join(h.database.dataDir, 'edited-team.sqlite');
    writeFileSync(file, readFileSync(join(h.config.backup.dir, body.filename)));
    const edited = new SQLite(file);
    edited.pragma('foreign_keys = OFF');
    edited.prepare('update translations set phrase_id = ?').run(betaPhrase.id);
    edited.close();
    await db.deleteFrom('projects').where('id', '=', alpha.id).execute();
    const accounts = await db.selectFrom('accounts').select('email').orderBy('email').execute();

    await expect(restoreSnapshot(h.translator.ctx, file, { replace: false })).rejects.toThrow(
      /another project/,
    );
    expect(await db.selectFrom('projects').select('id').where('id', '=', alpha.id).execute()).toEqual([]);
    expect(
      await db
        .selectFrom('project_members')
        .select('account_id')
        .where('project_id', '=', alpha.id)
        .execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('project_invites').select('email').where('project_id', '=', alpha.id).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('accounts').select('email').orderBy('email').execute()).toEqual(accounts);
    expect((await team.owner.client.get('/api/auth/session')).body.projects).toEqual([]);

    await restoreSnapshot(h.translator.ctx, join(h.config.backup.dir, body.filename), { replace: false });
    expect((await team.owner.client.get('/api/languages')).status).toBe(200);
  });
});

describe('backups from before the team section', () => {
  it('an upload holding accounts and sessions is kept without them, previews and restores without importing them', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const { file, intruder, cookie } = await legacyFile(
      readFileSync(join(h.config.backup.dir, body.filename)),
    );
    const before = await teamOf(alpha);
    const upload = await alpha.client.post('/api/backups/upload', readFileSync(file));
    expect(upload.status).toBe(201);
    const kept = await download(team.owner.client, `/backups/${upload.body.filename}`);
    for (const secret of [...secretsOf(), intruder])
      expect(kept.toString('latin1').includes(secret), secret).toBe(false);

    const preview = await team.owner.client.post(`/api/backups/${upload.body.filename}/restore?dryRun=true`);
    expect(preview.status).toBe(200);
    expect(preview.text).not.toContain(intruder);
    const restored = await team.owner.client.post(`/api/backups/${upload.body.filename}/restore`);
    expect(restored.status).toBe(200);
    expect(await teamOf(alpha)).toEqual(before);
    await expectNotImported(intruder, cookie);
  });

  it('the command restores such a file without its accounts, sessions or memberships', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const { file, intruder, cookie } = await legacyFile(
      readFileSync(join(h.config.backup.dir, body.filename)),
    );
    const { db } = h.translator.ctx;
    await db.deleteFrom('projects').where('id', '=', alpha.id).execute();
    const restored = await restoreSnapshot(h.translator.ctx, file, { replace: false });
    expect(restored.team).toEqual({ members: 0, invitations: [] });
    expect(await teamOf(alpha)).toEqual({ members: [], invites: [] });
    await expectNotImported(intruder, cookie);
    // Give the owner back for the tests after this one.
    await h.translator.services.accounts.repo.upsertMember(db, alpha.id, team.owner.accountId, 'owner', []);
  });

  it('a stored backup written before is cleaned of accounts and sessions before it is downloaded', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const { file, intruder } = await legacyFile(readFileSync(join(h.config.backup.dir, body.filename)));
    const name = `translator-p${alpha.id}-2026-01-01T00-00-00-000Z-auto.sqlite`;
    writeFileSync(join(h.config.backup.dir, name), readFileSync(file));
    const bytes = await download(team.owner.client, `/backups/${name}`);
    for (const secret of [...secretsOf(), intruder])
      expect(bytes.toString('latin1').includes(secret), secret).toBe(false);
    expect(readFileSync(join(h.config.backup.dir, name)).equals(bytes)).toBe(true);
    expect(rowsOf(bytes, 'select phrases.key from phrases')).toEqual([{ key: 'Alpha hello' }]);
    expect(readdirSync(h.config.backup.dir).filter((entry) => entry.startsWith('.'))).toEqual([]);
  });

  it('the hourly backup check brings stored backups of the earlier format up to date on disk', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const { file, intruder } = await legacyFile(readFileSync(join(h.config.backup.dir, body.filename)));
    const stored = join(h.config.backup.dir, `translator-p${alpha.id}-2026-01-02T00-00-00-000Z.sqlite`);
    writeFileSync(stored, readFileSync(file));
    await h.translator.services.backups.runDue();
    const text = readFileSync(stored).toString('latin1');
    for (const secret of [...secretsOf(), intruder]) expect(text.includes(secret), secret).toBe(false);
    expect(rowsOf(readFileSync(stored), 'pragma user_version')).toEqual([{ user_version: 2 }]);
  });
});

describe('backup formats', () => {
  it('refuses a file whose team section names no role of ours, restoring nothing', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const file = join(h.database.dataDir, 'bad-team.sqlite');
    writeFileSync(file, readFileSync(join(h.config.backup.dir, body.filename)));
    const edited = new SQLite(file);
    edited.prepare("update backup_team set role = 'admin' where email = ?").run(team.owner.email);
    edited.close();
    const { db } = h.translator.ctx;
    const members = await db
      .selectFrom('project_members')
      .selectAll()
      .where('project_id', '=', alpha.id)
      .execute();
    await db.deleteFrom('projects').where('id', '=', alpha.id).execute();
    await expect(restoreSnapshot(h.translator.ctx, file, { replace: false })).rejects.toThrow(
      /team section is damaged/,
    );
    expect(await db.selectFrom('projects').select('id').where('id', '=', alpha.id).execute()).toEqual([]);
    // Put the project and its team back for the tests after this one.
    await restoreSnapshot(h.translator.ctx, join(h.config.backup.dir, body.filename), { replace: false });
    await db.deleteFrom('project_invites').where('project_id', '=', alpha.id).execute();
    await db.deleteFrom('project_members').where('project_id', '=', alpha.id).execute();
    await db.insertInto('project_members').values(members).execute();
  });

  it('refuses a file of a newer format (422), keeping nothing', async () => {
    const { body } = await alpha.client.post('/api/backups');
    const file = join(h.database.dataDir, 'newer.sqlite');
    writeFileSync(file, readFileSync(join(h.config.backup.dir, body.filename)));
    const newer = new SQLite(file);
    newer.pragma('user_version = 3');
    newer.close();
    const listed = (await alpha.client.get('/api/backups')).body.length as number;
    const upload = await alpha.client.post('/api/backups/upload', readFileSync(file));
    expect(upload.status).toBe(422);
    expect(upload.body.error).toMatchObject({
      code: 'invalid_backup',
      message: expect.stringContaining('newer version'),
    });
    expect((await alpha.client.get('/api/backups')).body).toHaveLength(listed);
  });
});

async function expectNotImported(intruder: string, cookie: string) {
  const { db } = h.translator.ctx;
  expect(await db.selectFrom('accounts').select('id').where('email', '=', intruder).execute()).toEqual([]);
  expect(
    await db
      .selectFrom('account_sessions')
      .select('account_id')
      .where('id_hash', '=', sha256Hex(cookie))
      .execute(),
  ).toEqual([]);
  const session = await fetch(`${h.url}/api/auth/session`, {
    headers: { cookie: `translator_session=${cookie}` },
  });
  expect(await session.json()).toBeNull();
}

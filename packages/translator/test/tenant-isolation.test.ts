// Tenant isolation as a property: two projects of one deployment, each with its owner, members, phrases,
// translations, glossary, memory, prompt, AI job, screenshot, invitation and backups, all carrying a
// marker word and ids no other rows share. Every route of the OpenAPI document, every export and file
// format, every backup and screenshot is asked for by each tenant's owner (session and project key, and
// the page key from the tenant's site), with its own values and with the other tenant's: no byte of any
// answer holds the other tenant's marker, ids, keys or tokens, and no write naming the other's records
// changes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@app/server-kit';
import { operationsOf, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import type { TestClient } from '@app/server-kit/testing';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { ScreenshotsRepository } from '../src/screenshots/screenshots-repository.ts';
import { ONE_PIXEL_PNG, signedInMember, startHarness, startIdsAbove, type Harness } from './helpers.ts';
import { requestsFor, type TenantValues, type WalkRequest } from './tenant-walk.ts';

interface Needle {
  label: string;
  value: string;
  /** Ids are numbers: found only where no digit touches them. */
  numeric?: boolean;
}

interface Tenant {
  name: string;
  marker: string;
  id: number;
  key: string;
  /** The publishable page key, and the allowed origin it is sent from. */
  pageKey: string;
  site: string;
  owner: Awaited<ReturnType<typeof signedInMember>>;
  values: TenantValues;
  needles: Needle[];
}

/** Calls that end the caller's session, key or data: each goes last, after every other request. */
const CONSUMING = [
  'POST /textnodes/bulk-delete',
  'POST /textnodes/clear-pending',
  'POST /project/reset-database',
  'POST /project/regenerate-page-key',
  'POST /project/regenerate-key',
  'POST /auth/logout',
];

let h: Harness;
let fake: FakeOpenAI;
let tenants: [Tenant, Tenant];
let document: OpenApiDocument;

/** One tenant: `settings` on top of the same ones for both. */
async function makeTenant(marker: string, idBase: number, settings: object = {}): Promise<Tenant> {
  await startIdsAbove(h, idBase);
  const site = `https://${marker.toLowerCase()}.shop.test`;
  const project = await h.newProject(`${marker} Shop`);
  const { client } = project;
  await client.patch('/api/project/settings', {
    settings: {
      languages: ['fr', 'de'],
      translationProviderApiKey: `sk-${marker}`,
      allowedOrigins: [site],
      ...settings,
    },
  });
  const url = `${site}/catalogue`;
  await client.post('/api/textnodes', {
    url,
    keys: ['add to cart', 'checkout', 'sold out'].map((words) => ({
      key: `${marker} ${words}`,
      context: '',
    })),
  });
  const rows = (await client.get('/api/translations/all?limit=100')).body.rows as {
    id: number;
    key: string;
  }[];
  const phrases = rows.map((row) => row.id);
  await client.patch('/api/textnodes/status', { ids: phrases, status: 'approved' });
  await client.post('/api/translations', {
    lang: 'fr',
    translations: [
      { id: phrases[0], value: `${marker} ajouter` },
      { id: phrases[1], value: `${marker} payer` },
    ],
  });
  await client.post('/api/translations', {
    lang: 'de',
    translations: [{ id: phrases[0], value: `${marker} kaufen` }],
  });
  await client.post('/api/glossary', { term: `${marker}cart`, lang: 'fr', translation: `${marker}panier` });
  const prompt = (
    await client.post('/api/prompts', { name: `${marker} prompt`, text: `Write like ${marker}.` })
  ).body.id as string;
  const job = (await client.post('/api/ai-jobs', { key_ids: [phrases[2]], lang: 'de', prompt_id: prompt }))
    .body.jobId as string;
  await finished(client, job);
  await new ScreenshotsRepository(h.translator.ctx.db).save(project.id, phrases[0]!, url, {
    png: Buffer.concat([ONE_PIXEL_PNG, Buffer.from(marker)]),
    width: 1,
    height: 1,
  });
  const owner = await signedInMember(h, 'owner', [], project, `owner.${marker.toLowerCase()}@example.test`);
  const translator = await signedInMember(
    h,
    'translator',
    ['fr'],
    project,
    `translator.${marker.toLowerCase()}@example.test`,
  );
  const invite = await client.post('/api/members/invites', {
    email: `invited.${marker.toLowerCase()}@example.test`,
    role: 'viewer',
  });
  const token = (invite.body.path as string).split('/').at(-1)!;
  const editToken = (await owner.client.post('/api/auth/edit-token', { url })).body.token as string;
  await client.post('/api/backups');
  await h.translator.services.backups.create(project.id, { auto: true });
  const backups = ((await client.get('/api/backups')).body as { filename: string }[]).map((b) => b.filename);

  const { db } = h.translator.ctx;
  const ids = async (
    table:
      'translations' | 'translation_history' | 'glossary_terms' | 'translation_memory' | 'project_invites',
  ) =>
    (await db.selectFrom(table).select('id').where('project_id', '=', project.id).execute()).map((row) =>
      Number(row.id),
    );
  const row = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', project.id)
    .executeTakeFirstOrThrow();
  const values: TenantValues = {
    phrase: phrases,
    translation: await ids('translations'),
    history: await ids('translation_history'),
    glossary: await ids('glossary_terms'),
    invite: await ids('project_invites'),
    account: [translator.accountId, owner.accountId],
    prompt: [prompt],
    job: [job],
    backup: backups,
    token: [token],
    url,
    // The source of a translation a person made: what the memory holds.
    text: rows[0]!.key,
  };
  const sessionOf = (member: typeof owner) => member.client.cookie('translator_session')!;
  const needles: Needle[] = [
    { label: 'marker', value: marker },
    // Found even by a request that names the tenant's source text (a memory lookup).
    ...[`${marker} ajouter`, `${marker} payer`, `${marker} kaufen`, `${marker}panier`].map((value) => ({
      label: 'translation',
      value,
    })),
    { label: 'project key', value: project.key },
    { label: 'page key', value: row.page_key },
    { label: 'sealed key', value: row.api_key_sealed },
    { label: 'key hash', value: row.api_key_hash },
    { label: 'sealed provider key', value: row.provider_key_sealed! },
    { label: 'invitation token', value: token },
    { label: 'edit token', value: editToken },
    ...[owner, translator].flatMap((member) => [
      { label: 'session', value: sessionOf(member) },
      { label: 'session hash', value: sha256Hex(sessionOf(member)) },
      { label: 'CSRF token', value: member.client.defaultHeaders['x-csrf-token']! },
    ]),
    ...[prompt, job, ...backups].map((value) => ({ label: 'record name', value })),
    ...[
      project.id,
      ...phrases,
      ...values.translation,
      ...values.history,
      ...values.glossary,
      ...values.invite,
    ]
      .concat(await ids('translation_memory'), values.account)
      .map((id) => ({ label: 'id', value: String(id), numeric: true })),
  ];
  return {
    name: marker,
    marker,
    id: project.id,
    key: project.key,
    pageKey: row.page_key,
    site,
    owner,
    values,
    needles,
  };
}

/** Waits until the AI job has run (the worker of the harness runs it against the fake provider). */
async function finished(client: TestClient, job: string) {
  for (const start = Date.now(); Date.now() - start < 20_000;) {
    const status = (await client.get(`/api/ai-jobs/${job}`)).body.status as string;
    if (status === 'completed') return;
    if (status === 'failed' || status === 'cancelled') throw new Error(`AI job ${job} ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`AI job ${job} did not finish`);
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  h = await startHarness({ logLevel: 'error', ai: { baseUrl: fake.baseUrl } });
  // The first pools its translation memory (sharedMemory); the second does not, so neither sees the other's.
  tenants = [
    await makeTenant('Aquamarinexq', 4_733_000, { sharedMemory: true }),
    await makeTenant('Burgundyvzk', 8_266_000),
  ];
  // Rows the walk makes take ids of their own, which no needle names (the counters are the deployment's).
  await startIdsAbove(h, 9_500_000);
  document = (await h.client.get('/api/openapi.json')).body as OpenApiDocument;
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

/**
 * Each tenant's callers: its owner's dashboard session and its project key, and (though the page routes
 * say little) the page key from the tenant's own site. Only the first two must reach its data.
 */
function callersOf(tenant: Tenant): { name: string; headers(): Record<string, string> }[] {
  return [
    {
      name: `${tenant.name} owner (session)`,
      headers: () => {
        const cookie = tenant.owner.client.cookie('translator_session');
        return {
          ...tenant.owner.client.defaultHeaders,
          ...(cookie ? { cookie: `translator_session=${cookie}` } : {}),
        };
      },
    },
    { name: `${tenant.name} key`, headers: () => ({ 'x-api-key': tenant.key }) },
    {
      name: `${tenant.name} page key`,
      headers: () => ({ 'x-api-key': tenant.pageKey, origin: tenant.site }),
    },
  ];
}

const found = (haystack: string, needle: Needle) => {
  const value = needle.value.toLowerCase();
  if (!needle.numeric) return haystack.includes(value);
  return new RegExp(`(?<![0-9])${value}(?![0-9])`).test(haystack);
};

interface Walk {
  requests: number;
  problems: string[];
  /** Requests sent, by operation. */
  asked: Map<string, number>;
  /** Answers holding the caller's own marker, by caller: the walk reached each tenant's data. */
  ownMarker: Map<string, number>;
}

/** Sends `request` as a caller of `tenant` and notes any of `other`'s needles in the answer (status, headers, body). */
async function send(
  walk: Walk,
  tenant: Tenant,
  other: Tenant,
  caller: ReturnType<typeof callersOf>[number],
  request: WalkRequest,
) {
  const response = await fetch(`${h.url}/api${request.path}`, {
    method: request.method,
    headers: {
      ...caller.headers(),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  walk.requests += 1;
  walk.asked.set(request.operation, (walk.asked.get(request.operation) ?? 0) + 1);
  const answer =
    [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n') +
    '\n' +
    bytes.toString('latin1');
  const haystack = answer.toLowerCase();
  const asked = `${request.path}\n${JSON.stringify(request.body ?? null)}`.toLowerCase();
  const where = `${caller.name}: ${request.method} ${request.path} → ${response.status}`;
  if (haystack.includes(tenant.marker.toLowerCase()))
    walk.ownMarker.set(caller.name, (walk.ownMarker.get(caller.name) ?? 0) + 1);
  if (response.status >= 500) walk.problems.push(`${where}: ${bytes.toString('utf8').slice(0, 200)}`);
  for (const needle of other.needles) {
    // What the caller sent itself (another tenant's id in the path) is no leak when it is echoed.
    if (found(asked, needle) || !found(haystack, needle)) continue;
    walk.problems.push(`${where}: holds ${other.name}'s ${needle.label} ${needle.value}`);
  }
  if (response.status === 200 && request.operation === 'POST /project/regenerate-key')
    tenant.key = JSON.parse(bytes.toString('utf8')).api_key as string;
  if (response.status === 200 && request.operation === 'POST /project/regenerate-page-key')
    tenant.pageKey = JSON.parse(bytes.toString('utf8')).page_key as string;
}

/** What each tenant's key holder sees of the project: unchanged by anything naming it from outside. */
async function stateOf(tenant: Tenant) {
  const headers = { 'x-api-key': tenant.key };
  // The export says when it was made.
  const read = async (path: string) =>
    (await (await fetch(`${h.url}/api${path}`, { headers })).text()).replace(/"timestamp":\d+/, '');
  return Promise.all(
    [
      '/export',
      '/translations/all?limit=100&lang=fr',
      '/glossary',
      '/prompts',
      '/members',
      '/backups',
      '/ai-jobs/log',
      '/project',
    ].map(read),
  );
}

describe('tenant isolation', () => {
  it("no answer to either tenant's owner holds a byte of the other tenant", async () => {
    const operations = operationsOf(document);
    const walk: Walk = { requests: 0, problems: [], asked: new Map(), ownMarker: new Map() };
    const phase = async (chosen: string[], own: boolean) => {
      for (const operation of chosen) {
        for (const [tenant, other] of [tenants, [tenants[1], tenants[0]]] as const) {
          const requests = requestsFor(document, operation, own ? tenant.values : other.values, own);
          for (const caller of callersOf(tenant))
            for (const request of requests) await send(walk, tenant, other, caller, request);
        }
      }
    };
    const reads = operations.filter((operation) => operation.startsWith('GET '));
    const writes = operations.filter(
      (operation) => !operation.startsWith('GET ') && !CONSUMING.includes(operation),
    );
    await phase(reads, true);
    await phase(reads, false);
    const before = await Promise.all(tenants.map(stateOf));
    await phase(writes, false);
    // A write naming the other tenant's records changes nothing of either tenant.
    expect(await Promise.all(tenants.map(stateOf))).toEqual(before);
    await phase(
      writes.filter((operation) => !operation.startsWith('DELETE ')),
      true,
    );
    await phase(
      writes.filter((operation) => operation.startsWith('DELETE ')),
      true,
    );
    await phase(
      CONSUMING.filter((operation) => operations.includes(operation)),
      true,
    );

    expect(walk.problems).toEqual([]);
    expect([...walk.asked.keys()].sort()).toEqual([...operations].sort());
    for (const tenant of tenants)
      for (const caller of callersOf(tenant).slice(0, 2))
        expect(walk.ownMarker.get(caller.name), caller.name).toBeGreaterThan(25);
    const count = (...chosen: string[]) =>
      chosen.reduce((sum, operation) => sum + (walk.asked.get(operation) ?? 0), 0);
    console.info(
      `tenant walk: ${operations.length} routes, ${walk.requests} requests; ` +
        `exports ${count('GET /export', 'GET /export/{lang}')}, translation files ${count('GET /files/{lang}')}, ` +
        `backup downloads ${count('GET /backups/{filename}', 'GET /backup')}, ` +
        `screenshots ${count('GET /phrases/{id}/screenshot')}`,
    );
  }, 180_000);
});

// `npm run bench manager-web/bench/page-budget`: each main page of the built web client, in Chromium at
// desktop size, signed in as the administrator of a manager holding 2,000 containers (two sites, two
// dummy nodes each, rows put in place directly as the scale test does): the time from navigation to the
// page's data drawn with no loader left. Goal (issue 34): under 1 s for every page on this machine.
import { DESKTOP } from '@app/server-kit/testing/chromium';
import {
  printPageBudget,
  scriptsFetched,
  timePages,
  type BudgetPage,
} from '@app/server-kit/testing/page-budget';
import { adminClient, startManager } from '@app/manager/testing';
import { insertContainers } from '@app/manager/testing/containers';
import { closeChromium, ensureBuilt, launchChromium, newPage, signIn } from '../test/browser.ts';
import { addDummyNode, addSite } from '../test/fixtures.ts';

const SITES = 2;
const NODES_PER_SITE = 2;
const PER_NODE = 500;

await ensureBuilt();
const [test, browser] = await Promise.all([startManager(), launchChromium()]);
try {
  const admin = await adminClient(test, 'admin');
  const sites: Array<{ id: number; nodes: number[] }> = [];
  for (let s = 1; s <= SITES; s++) {
    const id = await addSite(admin, `site${s}`);
    const nodes: number[] = [];
    for (let n = 1; n <= NODES_PER_SITE; n++) nodes.push(await addDummyNode(admin, id, `s${s}n${n}`));
    sites.push({ id, nodes });
  }
  const rows = sites.flatMap(({ nodes }, s) =>
    nodes.flatMap((nodeId, n) =>
      Array.from({ length: PER_NODE }, (_, i) => ({
        hostname: `ct-${s + 1}-${n + 1}-${String(i).padStart(3, '0')}`,
        nodeId,
        containerId: `seeded-${s}-${n}-${i}`,
      })),
    ),
  );
  await insertContainers(test, 'admin', rows);
  const site = sites[0]!;
  const container = await test.manager.database.db
    .selectFrom('containers')
    .select('id')
    .where('hostname', '=', 'ct-1-1-000')
    .executeTakeFirstOrThrow();

  const pages: BudgetPage[] = [
    { name: 'containers', path: `/sites/${site.id}/containers`, ready: 'tbody tr[data-container]' },
    {
      name: 'container',
      path: `/sites/${site.id}/containers/${container.id}`,
      ready: '[data-testid="container-hostname"]',
    },
    { name: 'sites', path: '/sites', ready: '[data-testid="sites-table"] tbody tr' },
    { name: 'nodes', path: `/sites/${site.id}/nodes`, ready: '[data-testid="nodes-table"] tbody tr' },
    {
      name: 'node',
      path: `/sites/${site.id}/nodes/${site.nodes[0]}`,
      ready: '[data-testid="node-containers"] tbody tr',
    },
    { name: 'users', path: '/users', ready: '[data-testid="users-table"] tbody tr' },
    { name: 'audit log', path: '/audit-log', ready: 'tbody tr' },
    // Swagger UI has drawn the document's tags (closed; an operation opens on a click).
    { name: 'API docs', path: '/api/v1/docs', ready: '.opblock-tag', goalMs: 2000 },
  ];
  const { page } = await newPage(browser, test.baseUrl, DESKTOP);
  const signingIn = await scriptsFetched(page, () => signIn(page, 'admin'));
  const timings = await timePages(page, pages, { apiPrefix: '/api/' });
  printPageBudget(
    `Manager web client, ${rows.length.toLocaleString('en')} containers, desktop`,
    signingIn,
    timings,
  );
} finally {
  await closeChromium(browser);
  await test.close();
}

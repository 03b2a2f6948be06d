// What a user who is not an administrator may press, in real Chromium: walking every page its navigation
// offers and the pages of the containers it owns and collaborates on, every enabled control it uses (a
// dialog it opens confirmed) is answered without a 403. A control the user may not use is hidden or
// disabled, not offered to be refused.
import { describe, expect, it } from 'vitest';
import { navigationPages, walkPages } from '@app/server-kit/testing/control-walk';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, signedInPage } from './browser.ts';
import { sharedContainer } from './fixtures.ts';

describe('manager web client: role-aware controls', { timeout: 240_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  async function walk(username: string, containers: string[]) {
    const { context, page } = await signedInPage(suite, username, '/overview');
    const walked = await walkPages(page, [...(await navigationPages(page)), ...containers]);
    await context.close();
    return walked;
  }

  it('a collaborator, then the owner: no enabled control on any page answers 403 when used', async () => {
    const { test, admin } = suite;
    const names = { site: 'roles', node: 'sim-r', owner: 'rhea', collaborator: 'cato', hostname: 'rolebox' };
    const { siteId, id } = await sharedContainer(test, admin, names);
    const container = `/sites/${siteId}/containers/${id}`;

    // The collaborator first: the owner's walk may delete the container.
    const collaborator = await walk('cato', [container]);
    expect(collaborator.refusals).toEqual([]);
    // A walk that found nothing to use would pass whatever the pages show.
    expect(collaborator.used, 'collaborator').toBeGreaterThan(0);

    const owner = await walk('rhea', [container]);
    expect(owner.refusals).toEqual([]);
    expect(owner.used, 'owner').toBeGreaterThan(collaborator.used);
  });
});

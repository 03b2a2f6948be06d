import type { Transaction } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ManagerDB } from '../db/schema.ts';
import { InMemoryKeptVolumesRepository } from '../testing/in-memory-kept-volumes-repository.ts';
import { UNAUDITED } from '../testing/unaudited.ts';
import { KeptVolumes } from './kept-volumes.ts';

const SITE = 3;
const OTHER_SITE = 4;
// The in-memory repository ignores the deleting transaction it is handed.
const DELETING = Object.freeze({}) as Transaction<ManagerDB>;
const folder = (name: string, siteId = SITE) => `/srv/volumes/${siteId}/1001/web1/${name}`;

describe('KeptVolumes', () => {
  let repository: InMemoryKeptVolumesRepository;
  let kept: KeptVolumes;

  beforeEach(() => {
    repository = new InMemoryKeptVolumesRepository();
    kept = new KeptVolumes(repository, { assertExists: async () => {} }, UNAUDITED);
  });

  const keepVolumes = async (...volumes: { name: string; hostPath: string | null }[]) => {
    repository.volumes.push(...volumes.map((volume) => ({ ...volume, containerId: 1, mountPath: '/data' })));
    const result = await kept.keep(DELETING, { id: 1, siteId: SITE, hostname: 'web1' });
    repository.volumes.length = 0;
    return result;
  };

  it('keeps the volumes of a deleted container that got a folder, for its site', async () => {
    const result = await keepVolumes(
      { name: 'data', hostPath: folder('data') },
      { name: 'cache', hostPath: null },
    );
    expect(result).toEqual([{ name: 'data', hostPath: folder('data') }]);
    expect(await kept.list(SITE)).toMatchObject([
      {
        siteId: SITE,
        hostname: 'web1',
        name: 'data',
        hostPath: folder('data'),
        status: 'kept',
        statusMessage: null,
      },
    ]);
    expect(await kept.list(OTHER_SITE)).toEqual([]);
  });

  it('marks a kept folder for removal by the site agent, again after a failed removal', async () => {
    await keepVolumes({ name: 'data', hostPath: folder('data') });
    const [volume] = await kept.list(SITE);
    Object.assign(repository.rows[0]!, { status: 'remove_failed', status_message: 'busy' });
    expect(await kept.remove(SITE, volume!.id)).toMatchObject({ status: 'removing', statusMessage: null });
  });

  it('hands the agent no path of a shape the manager does not make (409 path_not_removable)', async () => {
    await keepVolumes(
      { name: 'root', hostPath: '/srv' },
      { name: 'elsewhere', hostPath: folder('data', OTHER_SITE) },
    );
    for (const volume of await kept.list(SITE)) {
      await expect(kept.remove(SITE, volume.id)).rejects.toMatchObject({
        statusCode: 409,
        code: 'path_not_removable',
      });
    }
    expect((await kept.list(SITE)).map((volume) => volume.status)).toEqual(['kept', 'kept']);
  });

  it('does not remove a folder a container has again (409 volume_in_use)', async () => {
    await keepVolumes({ name: 'data', hostPath: folder('data') });
    const [volume] = await kept.list(SITE);
    repository.volumes.push({ containerId: 2, name: 'data', hostPath: folder('data'), mountPath: '/data' });
    await expect(kept.remove(SITE, volume!.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'volume_in_use',
    });
    expect((await kept.list(SITE))[0]!.status).toBe('kept');
  });

  it('does not find the kept volume of another site (404)', async () => {
    await keepVolumes({ name: 'data', hostPath: folder('data') });
    const [volume] = await kept.list(SITE);
    await expect(kept.remove(OTHER_SITE, volume!.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
  });
});

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAgentCli } from '@app/agent/testing/agent-cli';
import { startSandbox, type Sandbox } from '@app/agent/testing/sandbox';
import { eventually } from '../fleet-helpers.ts';
import { createWithAgent, engineSite, removeEngineSite, type EngineSite } from './engine-fixture.ts';
import { TEST_IMAGE } from './test-image.ts';

const { engines, registry, nonRootImage } = inject('realEngines');

/**
 * A volume a container running as a non-root user can write, on real engines: the real site agent
 * makes its folder with the owner the manager derived from the image's numeric `User`; a delete keeps
 * the folder with its data, and an administrator's removal has the agent delete it.
 */
describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 21}` })))(
  'volume folders of a non-root container on a real $name engine',
  ({ socket, subnet }) => {
    let site: EngineSite | undefined;
    let sandbox: Sandbox | undefined;
    let containerId: number;
    let folder: string;
    const { uid, gid } = TEST_IMAGE.user;

    const runAgent = async () => {
      const { code, stdout, stderr } = await runAgentCli(['run'], sandbox!.env);
      expect({ code, stderr }, stdout).toEqual({ code: 0, stderr: '' });
    };

    beforeAll(async () => {
      site = await engineSite(socket, subnet, registry);
      sandbox = await startSandbox({ MANAGER_URL: site.test.baseUrl, SITE_ID: String(site.siteId) });
    });
    afterAll(async () => {
      await sandbox?.stop();
      await removeEngineSite(site, socket, nonRootImage);
    });

    it("the container's user writes into the volume folder the agent made for it", async () => {
      const created = await createWithAgent(
        site!,
        site!.siteId,
        { hostname: 're-owner1', template: nonRootImage },
        runAgent,
      );
      expect(created.status, created.outputs.join('\n')).toBe('success');
      expect(created.outputs).toContain(`The volume folders will be owned by host uid ${uid}, gid ${gid}.`);
      containerId = created.containerId;
      const mounted = created.outputs.map((line) => /^Volume data: (\S+) on \/data \(rw\)\.$/.exec(line));
      folder = mounted.find(Boolean)![1]!;
      expect(folder.startsWith(site!.storageRoot)).toBe(true);
      const made = statSync(folder);
      expect([made.uid, made.gid, made.mode & 0o777]).toEqual([uid, gid, 0o770]);
      const proof = join(folder, 'proof');
      await eventually(async () => existsSync(proof), 30_000);
      expect(readFileSync(proof, 'utf8')).toContain(`uid=${uid} gid=${gid}`);
      expect(statSync(proof).uid).toBe(uid);
    });

    it('a delete keeps the folder with its data and lists it; an admin has the agent remove it', async () => {
      const { admin, siteId } = site!;
      const deleted = await admin.delete(`/sites/${siteId}/containers/${containerId}`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body.data.keptVolumes).toEqual([{ name: 'data', hostPath: folder }]);
      expect(existsSync(join(folder, 'proof'))).toBe(true);
      const [kept] = (await admin.get(`/sites/${siteId}/kept-volumes`)).body.data;
      expect(kept).toMatchObject({ hostname: 're-owner1', name: 'data', hostPath: folder, status: 'kept' });

      expect((await admin.delete(`/sites/${siteId}/kept-volumes/${kept.id}`)).status).toBe(202);
      await runAgent();
      expect(existsSync(folder)).toBe(false);
      expect(existsSync(join(folder, '..'))).toBe(true);
      expect((await admin.get(`/sites/${siteId}/kept-volumes`)).body.data).toEqual([]);
    });
  },
);

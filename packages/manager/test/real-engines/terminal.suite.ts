import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createWithAgent, engineSite, removeEngineSite, type EngineSite } from './engine-fixture.ts';
import { acceptedTerminal } from '../terminal-client.ts';

const { engines, registry, image } = inject('realEngines');

describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 31}` })))(
  'a terminal in a container on a real $name engine, through the manager',
  ({ name, socket, subnet }) => {
    let site: EngineSite | undefined;
    let path: string;

    beforeAll(async () => {
      site = await engineSite(socket, subnet, registry);
      const { containerId, status, outputs } = await createWithAgent(site, site.siteId, {
        hostname: `re-shell-${name}`,
        template: image,
      });
      expect(status, outputs.join('\n')).toBe('success');
      path = `/sites/${site.siteId}/containers/${containerId}/terminal`;
    });
    afterAll(() => removeEngineSite(site, socket, image));

    it('runs a command, follows a resize, and closes when the shell exits', async () => {
      const terminal = await acceptedTerminal(site!.test.baseUrl, `${path}?cols=90&rows=20`, {
        client: site!.admin,
      });
      expect((await terminal.run('echo $((6*7))', /\r\n(\d+)\r\n/))[1]).toBe('42');
      expect(await terminal.sttySize()).toBe('20 90');
      expect(await terminal.resizeAndAsk(132, 43)).toBe('43 132');
      terminal.type('exit\r');
      expect(await terminal.closed).toEqual({ code: 1000, exitReason: 'the shell exited' });
    });
  },
);

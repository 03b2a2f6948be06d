import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execOutput, jobEnds, jobOutputs } from '../container-helpers.ts';
import { createWithAgent, engineSite, removeEngineSite, type EngineSite } from './engine-fixture.ts';

const { engines, registry, image } = inject('realEngines');

describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 47}` })))(
  'start, stop and exec on a real $name engine, through the manager API',
  ({ socket, subnet }) => {
    let site: EngineSite | undefined;
    let url = '';

    /** Queues the operation and waits for its job: its id, status and output. */
    const run = async (path: string, body?: unknown) => {
      const response = await site!.admin.post(`${url}/${path}`, body);
      expect(response.status, response.text).toBe(202);
      const jobId = response.body.data.jobId as number;
      return {
        jobId,
        status: await jobEnds(site!.admin, jobId),
        output: await jobOutputs(site!.admin, jobId),
      };
    };
    const status = async () => (await site!.admin.get(url)).body.data.status as string;

    beforeAll(async () => {
      site = await engineSite(socket, subnet, registry);
      const made = await createWithAgent(site, site.siteId, { hostname: 're-ops1', template: image });
      expect(made.status, made.outputs.join('\n')).toBe('success');
      url = `/sites/${site.siteId}/containers/${made.containerId}`;
    });
    afterAll(() => removeEngineSite(site, socket, image));

    it('stop → offline, start → running', async () => {
      expect(await status()).toBe('running');
      const stopped = await run('stop');
      expect(stopped.status, stopped.output.join('\n')).toBe('success');
      expect(await status()).toBe('offline');
      const started = await run('start');
      expect(started.status, started.output.join('\n')).toBe('success');
      expect(await status()).toBe('running');
    });

    it("exec of sh -c 'exit 3': exit code 3 in the result, its output lines from stdout and stderr", async () => {
      const done = await run('exec', { command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] });
      expect(done.status).toBe('failure');
      expect(done.output[0]).toBe("$ sh -c 'echo out; echo err >&2; exit 3'");
      expect(done.output).toEqual(expect.arrayContaining(['out', 'err', 'Exit code 3.']));
      expect(done.output.at(-1)).toBe('Error: The command exited with code 3.');
      expect((await site!.admin.get(`/jobs/${done.jobId}`)).body.data.result).toEqual({ exitCode: 3 });

      const ok = await run('exec', { command: 'echo $((6*7))' });
      expect(ok.status).toBe('success');
      expect(ok.output).toEqual(execOutput("sh -c 'echo $((6*7))'", ['42'], { exitCode: 0 }));
    });

    it('exec past its timeout fails with a clear line', async () => {
      const done = await run('exec', { command: ['sh', '-c', 'echo going; sleep 20'], timeout: 2 });
      expect(done.status).toBe('failure');
      expect(done.output).toEqual(
        execOutput("sh -c 'echo going; sleep 20'", ['going'], { timeoutSeconds: 2 }),
      );
    });
  },
);

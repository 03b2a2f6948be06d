import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readSse } from '../fleet-helpers.ts';
import { createWithAgent, engineSite, removeEngineSite, type EngineSite } from './engine-fixture.ts';

const { engines, registry, image } = inject('realEngines');

interface Line {
  time: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Prints `tick N` on stdout and `oops N` on stderr once a second. */
const TICKER = `sh -c 'i=0; while true; do i=$((i+1)); echo "tick $i"; echo "oops $i" >&2; sleep 1; done'`;

describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 31}` })))(
  'container logs on a real $name engine, through the manager API',
  ({ socket, subnet }) => {
    let site: EngineSite | undefined;
    let url = '';

    beforeAll(async () => {
      site = await engineSite(socket, subnet, registry);
      const { containerId, status, outputs } = await createWithAgent(site, site.siteId, {
        hostname: 're-ticker1',
        template: image,
        entrypoint: TICKER,
      });
      expect(status, outputs.join('\n')).toBe('success');
      url = `/sites/${site.siteId}/containers/${containerId}/logs`;
    });
    afterAll(() => removeEngineSite(site, socket, image));

    const linesOf = async (query: string) => {
      const response = await site!.admin.get(`${url}${query}`);
      expect(response.status, response.text).toBe(200);
      return (response.body.data as { lines: Line[] }).lines;
    };

    it('follows a container that prints a line a second: new lines arrive as they are written', async () => {
      const lines: Line[] = [];
      const result = await readSse(
        `${site!.test.baseUrl}/api/v1${url}/stream?stream=stdout&tail=1`,
        { cookie: `connect.sid=${site!.admin.cookie('connect.sid')}` },
        {
          stop: (event) => {
            if (event.event === 'line') lines.push(JSON.parse(event.data) as Line);
            return lines.length === 4;
          },
        },
      );
      expect(result.status).toBe(200);
      expect(lines.every((line) => line.stream === 'stdout' && /^tick \d+$/.test(line.text))).toBe(true);
      const numbers = lines.map((line) => Number(line.text.split(' ')[1]));
      expect(numbers).toEqual([numbers[0]!, numbers[0]! + 1, numbers[0]! + 2, numbers[0]! + 3]);
      const times = lines.map((line) => Date.parse(line.time));
      expect(times[3]! - times[1]!).toBeGreaterThan(1500);
      expect(Date.now() - times[3]!).toBeLessThan(3000);
    }, 30_000);

    it('keeps stdout and stderr apart, and reads a since/until window', async () => {
      const both = await linesOf('?tail=40');
      expect(both.some((line) => line.stream === 'stderr' && /^oops \d+$/.test(line.text))).toBe(true);
      expect(both.some((line) => line.stream === 'stdout' && /^tick \d+$/.test(line.text))).toBe(true);
      // The tail counts both streams (the engine interleaves them as it wrote them).
      const stderr = await linesOf('?stream=stderr&tail=10');
      expect(stderr.length).toBeGreaterThan(0);
      expect(stderr.length).toBeLessThan(10);
      expect(stderr.every((line) => line.stream === 'stderr' && line.text.startsWith('oops '))).toBe(true);

      const ticks = both.filter((line) => line.stream === 'stdout');
      const from = ticks.at(-4)!;
      const to = ticks.at(-2)!;
      const window = await linesOf(`?stream=stdout&since=${from.time}&until=${to.time}`);
      expect(window.map((line) => line.text)).toEqual(ticks.slice(-4, -1).map((line) => line.text));
      const searched = await linesOf(`?search=OOPS&tail=20`);
      expect(searched.length).toBeGreaterThan(0);
      expect(searched.every((line) => line.text.startsWith('oops '))).toBe(true);
    });
  },
);

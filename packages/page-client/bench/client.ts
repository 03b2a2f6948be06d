// Prints the page client's gzipped size and the time of its first pass over a page of 2,000 text
// nodes, all translated (the work done before the page is shown), in Chromium. Goals: < 8 KB, < 50 ms.
import { gzipSync } from 'node:zlib';
import { clientBundle } from '../build.ts';
import { startHarness } from '@app/translator/testing';
import { launchChromium, serveSite } from '../test/browser.ts';

const NODES = 2000;
const RUNS = 5;
const WORDS = ['amber', 'brisk', 'cedar', 'dune', 'ember', 'fjord', 'grove', 'harbor', 'iris', 'juniper'];
const phrase = (i: number) =>
  `The ${WORDS[i % 10]} ${WORDS[Math.floor(i / 10) % 10]} ${WORDS[Math.floor(i / 100) % 10]} ${WORDS[Math.floor(i / 1000) % 10]} story`;

const { code } = await clientBundle();
console.log(`page client: ${code.length} bytes, ${gzipSync(code).length} bytes gzipped (goal < 8192)`);

const harness = await startHarness();
const browser = await launchChromium();
try {
  const keys = Array.from({ length: NODES }, (_, i) => ({ key: phrase(i), context: '' }));
  await harness.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
  for (let start = 0; start < NODES; start += 1000) {
    await harness.client.post('/api/textnodes', {
      keys: keys.slice(start, start + 1000),
      url: 'http://bench/',
    });
  }
  const ids: number[] = [];
  for (let page = 1; ids.length < NODES; page++) {
    const rows = (await harness.client.get(`/api/translations/all?limit=500&page=${page}`)).body.rows as {
      id: number;
    }[];
    ids.push(...rows.map((row) => row.id));
  }
  await harness.client.patch('/api/textnodes/status', { ids, status: 'approved' });
  await harness.client.post('/api/translations', {
    lang: 'fr',
    translations: keys.map(({ key }) => ({ key, context: '', value: `FR ${key}` })),
  });

  const body = keys
    .map(({ key }, i) => (i % 4 === 0 ? `<p title="${key}">${key}</p>` : `<li>${key}</li>`))
    .join('\n');
  const site = await serveSite({
    '/': `<!doctype html><html><head><script src="${harness.url}/client.js" data-api-key="${harness.key}" data-lang="fr"></script></head><body><ul>${body}</ul></body></html>`,
  });
  const durations: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => performance.getEntriesByName('loco:first-pass').length > 0);
    const [duration, translated] = await page.evaluate(() => [
      performance.getEntriesByName('loco:first-pass')[0]!.duration,
      document.querySelectorAll('[data-loco-translated]').length,
    ]);
    if (translated < NODES) throw new Error(`only ${translated} elements translated`);
    durations.push(duration);
    await page.close();
  }
  durations.sort((a, b) => a - b);
  console.log(
    `first pass over ${NODES} text nodes (+${NODES / 4} title attributes), all translated: median ${durations[RUNS >> 1]!.toFixed(1)} ms, best ${durations[0]!.toFixed(1)} ms (goal < 50 ms)`,
  );
  await site.close();
} finally {
  await browser.close();
  await harness.stop();
}

// The page budget of issue 34, shared by both web apps: the JavaScript a page fetches before it shows
// (bytes, for a test) and each main page's time to usable data (milliseconds, for a bench).
import { loadavg } from 'node:os';
import type { Page, Request, Response } from 'playwright-core';

/** Issue 34's ceiling on the compressed JavaScript a browser fetches before the first page shows. */
export const FIRST_PAGE_SCRIPT_BYTES = 200_000;

/** Below this the builds leave a file uncompressed (web-kit's precompress: headers outweigh the saving). */
const RAW_BELOW_BYTES = 1024;

export interface FetchedScripts {
  /** The sum of the script responses' content-length: their compressed sizes when sent compressed. */
  bytes: number;
  count: number;
  /** Each script's path and content-length, in the order they arrived: what a failed budget names. */
  files: string[];
  /** What makes the sum untrue: a script of 1 KiB or more sent neither br nor gzip, or one without a content-length. */
  problems: string[];
}

/** The script responses the page receives while `open` runs. */
export async function scriptsFetched(page: Page, open: () => Promise<void>): Promise<FetchedScripts> {
  const fetched: FetchedScripts = { bytes: 0, count: 0, files: [], problems: [] };
  const record = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    const headers = response.headers();
    const encoding = headers['content-encoding'] ?? 'identity';
    const length = headers['content-length'];
    fetched.count += 1;
    fetched.bytes += Number(length ?? 0);
    fetched.files.push(`${new URL(response.url()).pathname} ${length ?? '?'} B ${encoding}`);
    if (length === undefined) fetched.problems.push(`${response.url()}: no content-length`);
    else if (!['br', 'gzip'].includes(encoding) && Number(length) >= RAW_BELOW_BYTES)
      fetched.problems.push(`${response.url()}: ${length} B sent ${encoding}`);
  };
  page.on('response', record);
  try {
    await open();
  } finally {
    page.off('response', record);
  }
  return fetched;
}

/**
 * What keeps `scripts` from meeting the first page's budget: their problems, and a line naming every script
 * (path, size, encoding) when their sum is over FIRST_PAGE_SCRIPT_BYTES. Empty when they meet it.
 */
export function budgetBreaches(scripts: FetchedScripts): string[] {
  const over =
    scripts.bytes > FIRST_PAGE_SCRIPT_BYTES
      ? [`${scripts.bytes} B of script, over ${FIRST_PAGE_SCRIPT_BYTES}: ${scripts.files.join(', ')}`]
      : [];
  return [...scripts.problems, ...over];
}

export interface BudgetPage {
  name: string;
  path: string;
  /** A CSS selector that matches once the page's data is drawn (e.g. its first table row). */
  ready: string;
  /** This page's goal when it is not the budget's (the API docs: 2 s). */
  goalMs?: number;
}

/** What the apps draw while they wait for data (Mantine's Loader, web-kit's Busy). */
const LOADER = '.mantine-Loader-root';

export interface PageTiming {
  name: string;
  /** Milliseconds from navigation start to the ready selector with no loader left, one per round. */
  times: number[];
  /** API requests made by the last round's load. */
  apiRequests: number;
  goalMs?: number | undefined;
}

/**
 * Loads each page `rounds` times (a full navigation; the first round fills the HTTP cache, as a person's
 * first visit does) and reads, in the page, when its data is there: the ready selector matches and no
 * loader is left. `apiPrefix` (e.g. `/api/`) says which requests are counted as the page's data calls.
 */
export async function timePages(
  page: Page,
  pages: BudgetPage[],
  { rounds = 5, apiPrefix }: { rounds?: number; apiPrefix: string },
): Promise<PageTiming[]> {
  const timings: PageTiming[] = [];
  for (const target of pages) {
    const times: number[] = [];
    let apiRequests = 0;
    for (let round = 0; round < rounds; round++) {
      apiRequests = 0;
      const count = (request: Request) => {
        if (new URL(request.url()).pathname.startsWith(apiPrefix)) apiRequests += 1;
      };
      page.on('request', count);
      await page.goto(target.path, { waitUntil: 'commit' });
      const ready = await page
        .waitForFunction(
          ({ ready, loader }) => {
            const { document } = globalThis as unknown as {
              document: { querySelector(css: string): unknown };
            };
            return document.querySelector(ready) && !document.querySelector(loader)
              ? performance.now()
              : false;
          },
          { ready: target.ready, loader: LOADER },
          { polling: 'raf', timeout: 30_000 },
        )
        .catch((error: Error) => {
          throw new Error(`${target.name} (${target.path}): no ${target.ready} without a loader`, {
            cause: error,
          });
        });
      times.push(Number(await ready.jsonValue()));
      page.off('request', count);
    }
    timings.push({ name: target.name, times, apiRequests, goalMs: target.goalMs });
  }
  return timings;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * Prints the JavaScript that signing in fetched (the sign-in page, then the page it lands on: what a new
 * browser pays across both; each page's own budget is a test's) and the timings as a table with the
 * machine's load average, flagging pages over `goalMs` (or their own goal).
 */
export function printPageBudget(
  title: string,
  signingIn: FetchedScripts,
  timings: PageTiming[],
  goalMs = 1000,
): void {
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`${title} — load average ${load}`);
  console.log(
    `  signing in, the sign-in page and the landing page together: ${signingIn.count} scripts, ${(signingIn.bytes / 1000).toFixed(1)} KB compressed (the tests hold each page alone to ${FIRST_PAGE_SCRIPT_BYTES / 1000} KB)${signingIn.problems.length ? `; ${signingIn.problems.join(', ')}` : ''}`,
  );
  console.log(
    `  ${'page'.padEnd(22)} ${'first'.padStart(8)} ${'median'.padStart(8)} ${'max'.padStart(8)}  API calls`,
  );
  for (const { name, times, apiRequests, goalMs: own } of timings) {
    const typical = median(times.slice(1));
    const goal = own ?? goalMs;
    const flag = typical >= goal ? `  over ${ms(goal)}` : own ? `  (goal ${ms(goal)})` : '';
    console.log(
      `  ${name.padEnd(22)} ${ms(times[0]!).padStart(8)} ${ms(typical).padStart(8)} ${ms(Math.max(...times)).padStart(8)}  ${String(apiRequests).padStart(9)}${flag}`,
    );
  }
  console.log('  (first: the first load, HTTP cache empty; median and max of the later loads, cache warm)');
}

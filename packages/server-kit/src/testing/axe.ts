// Accessibility checks in the browser tests: axe-core run inside the page playwright drives.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Locator, Page, Request } from 'playwright-core';
import { DESKTOP, PHONE } from './chromium.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const BLOCKING: ImpactValue[] = ['serious', 'critical'];

/** The axe rules that judge colours: the only ones whose verdict a colour scheme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * The widths and colour schemes every page is checked at (the clients follow the system's scheme), and
 * the rules each runs (all when unset): the dark scheme draws the same elements as the light one at the
 * same width, in other colours, so only the colour rules can find something new there.
 */
export const AUDIT_VIEWS: ReadonlyArray<{
  width: string;
  viewport: typeof DESKTOP;
  colorScheme: 'light' | 'dark';
  rules?: string[];
}> = [
  { width: 'desktop', viewport: DESKTOP, colorScheme: 'light' },
  { width: 'phone', viewport: PHONE, colorScheme: 'light' },
  { width: 'desktop', viewport: DESKTOP, colorScheme: 'dark', rules: COLOUR_RULES },
];

/**
 * The serious and critical axe-core violations of what the page shows now, one readable line per element
 * ("color-contrast (serious) Elements must meet minimum color contrast ratio thresholds: .badge — Fix
 * ..."). The script goes in through evaluate, which the pages' Content-Security-Policy does not block.
 */
export async function accessibilityViolations(page: Page, rules?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  // Only the violations are read: axe then keeps no detail of the rules a page passes.
  const options = { resultTypes: ['violations'], ...(rules && { runOnly: { type: 'rule', values: rules } }) };
  const results: AxeResults = await page.evaluate(
    (options) =>
      (globalThis as unknown as { axe: { run(options: object): Promise<AxeResults> } }).axe.run(options),
    options,
  );
  return results.violations
    .filter((violation) => violation.impact && BLOCKING.includes(violation.impact))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) ${violation.help}: ${node.target.join(' ')} — ${node.failureSummary?.replace(/\s+/g, ' ')}`,
      ),
    );
}

/** The requests a page has in flight, counted from playwright's events once `trackRequests` ran. */
const inFlight = new WeakMap<Page, { requests: Set<Request>; changed: Set<() => void> }>();

/** Counts the page's requests from now on, so that `settled` knows when none is left in flight. */
export function trackRequests(page: Page): void {
  if (inFlight.has(page)) return;
  const tracked = { requests: new Set<Request>(), changed: new Set<() => void>() };
  const update = (change: (request: Request) => void) => (request: Request) => {
    change(request);
    for (const listener of tracked.changed) listener();
  };
  // A stream (server-sent events, a WebSocket) stays open for as long as the page shows it.
  const streams = new Set(['eventsource', 'websocket']);
  page.on(
    'request',
    update((request) => !streams.has(request.resourceType()) && tracked.requests.add(request)),
  );
  const done = update((request) => tracked.requests.delete(request));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  inFlight.set(page, tracked);
}

/** How long a tracked page must have had no request in flight to count as quiet. */
const QUIET_MS = 100;

/** Resolves once no request of the page has been in flight for QUIET_MS. */
function noRequestFor(page: Page, ms: number): Promise<void> {
  const tracked = inFlight.get(page)!;
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      clearTimeout(timer);
      if (tracked.requests.size > 0) return;
      timer = setTimeout(() => {
        tracked.changed.delete(check);
        resolve();
      }, ms);
    };
    tracked.changed.add(check);
    check();
  });
}

/**
 * Resolves once the page is quiet: no request in flight for QUIET_MS, and still none after the page has
 * painted twice (React runs the effects that fetch after a paint, however loaded the machine is) and its
 * finite CSS transitions and animations have ended (a fading element would be judged half transparent).
 * Playwright's `networkidle` waits 500 ms instead, on every page.
 */
async function quiet(page: Page): Promise<void> {
  for (;;) {
    await noRequestFor(page, QUIET_MS);
    await page.evaluate(async () => {
      const window = globalThis as unknown as {
        requestAnimationFrame(next: () => void): void;
        document: {
          getAnimations(): Array<{
            finished: Promise<unknown>;
            playState: string;
            effect: { getTiming(): { iterations?: number } } | null;
          }>;
        };
      };
      await new Promise<void>((resolve) =>
        window.requestAnimationFrame(() => window.requestAnimationFrame(resolve)),
      );
      const ending = window.document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity,
        );
      await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    });
    if (inFlight.get(page)!.requests.size === 0) return;
  }
}

/**
 * Waits until a Mantine client's page has its data: no request in flight and no loader left. A page
 * whose requests are not tracked (`trackRequests`) waits for playwright's `networkidle`.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  if (inFlight.has(page)) await quiet(page);
  else await page.waitForLoadState('networkidle');
  // A selector wait runs in Playwright's own world: a string predicate would be refused by the apps'
  // content security policy (no eval) once it has to poll.
  await page.waitForSelector('.mantine-Loader-root', { state: 'detached' });
}

/**
 * Shows `url` as the app's own links do once the app is loaded: a history entry and the popstate event
 * its router follows, so the bundle and axe-core are not loaded again for every page audited. A tab's
 * first page loads from the server.
 */
async function show(page: Page, url: string): Promise<void> {
  if (!page.url().startsWith('http')) {
    await page.goto(url);
    return;
  }
  await page.evaluate((url) => {
    const window = globalThis as unknown as {
      history: { pushState(state: null, title: string, url: string): void };
      dispatchEvent(event: object): void;
      PopStateEvent: new (type: string) => object;
    };
    window.history.pushState(null, '', url);
    window.dispatchEvent(new window.PopStateEvent('popstate'));
  }, url);
}

/** Opens `url` as the app's links do (see show) and waits for its data (see settled). */
export async function openPage(page: Page, url: string): Promise<void> {
  await show(page, url);
  await settled(page);
}

/**
 * Opens `url` (inside the app once it is loaded), waits for its data, does `act` when given (for what
 * shows only once something is chosen) and returns the violations of `rules` (all when unset) found,
 * each line starting with the address.
 */
export async function auditPage(
  page: Page,
  url: string,
  { act, rules }: { act?: (page: Page) => Promise<void>; rules?: string[] } = {},
) {
  trackRequests(page);
  await openPage(page, url);
  await act?.(page);
  return (await accessibilityViolations(page, rules)).map((line) => `${url}: ${line}`);
}

/**
 * An `act` for auditPage: clicks the button named `name` and waits for its dialog to finish opening, so
 * the audit reads the dialog as a person meets it. Close it with closeDialog after the audit.
 */
export const openDialog = (name: string) => async (page: Page) => {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('dialog').waitFor();
  await page.waitForFunction(() => {
    // Runs in the page, whose document this package's types (no DOM) do not describe.
    const { document } = globalThis as unknown as {
      document: { getAnimations(): Array<{ playState: string }> };
    };
    return document.getAnimations().every((animation) => animation.playState !== 'running');
  });
};

/** Closes the open dialog with Escape, as a keyboard user does, and waits until it is gone. */
export async function closeDialog(page: Page) {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

type Rgb = [number, number, number];

/**
 * The colour an element's text is drawn in (its placeholder's, given '::placeholder') and the first
 * opaque background behind it, read from the browser's computed styles.
 */
export async function drawnColours(locator: Locator, pseudo?: '::placeholder') {
  return locator.evaluate((element, pseudo) => {
    // This runs in the page; the server package compiles without the DOM's types.
    interface Node {
      parentElement: Node | null;
    }
    const { getComputedStyle } = globalThis as unknown as {
      getComputedStyle(node: Node, pseudo: string | null): { color: string; backgroundColor: string };
    };
    const rgb = (css: string) => css.match(/[\d.]+/g)!.map(Number);
    let background = [255, 255, 255];
    for (let at: Node | null = element as Node; at; at = at.parentElement) {
      const colour = rgb(getComputedStyle(at, null).backgroundColor);
      if (colour[3] !== 0) {
        background = colour;
        break;
      }
    }
    return {
      text: rgb(getComputedStyle(element as Node, pseudo).color).slice(0, 3),
      background: background.slice(0, 3),
    } as { text: Rgb; background: Rgb };
  }, pseudo ?? null);
}

/** WCAG's relative luminance of an sRGB colour. */
function luminance(colour: Rgb): number {
  const [r, g, b] = colour.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

// Accessibility checks in the browser tests: axe-core run inside the page playwright drives.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE } from './chromium.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const BLOCKING: ImpactValue[] = ['serious', 'critical'];

/** The widths and colour schemes every page is checked at (the clients follow the system's scheme). */
export const AUDIT_VIEWS = [
  { width: 'desktop', viewport: DESKTOP, colorScheme: 'light' },
  { width: 'phone', viewport: PHONE, colorScheme: 'light' },
  { width: 'desktop', viewport: DESKTOP, colorScheme: 'dark' },
] as const;

/**
 * The serious and critical axe-core violations of what the page shows now, one readable line per element
 * ("color-contrast (serious) Elements must meet minimum color contrast ratio thresholds: .badge — Fix
 * ..."). The script goes in through evaluate, which the pages' Content-Security-Policy does not block.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results: AxeResults = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run(),
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

/** Waits until a Mantine client's page has its data: no request in flight and no loader left. */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  // A selector wait runs in Playwright's own world: a string predicate would be refused by the apps'
  // content security policy (no eval) once it has to poll.
  await page.waitForSelector('.mantine-Loader-root', { state: 'detached' });
}

/**
 * Opens `url`, waits for its data, does `act` when given (for what shows only once something is chosen)
 * and returns the violations found, each line starting with the address.
 */
export async function auditPage(page: Page, url: string, act?: (page: Page) => Promise<void>) {
  await page.goto(url);
  await settled(page);
  await act?.(page);
  return (await accessibilityViolations(page)).map((line) => `${url}: ${line}`);
}

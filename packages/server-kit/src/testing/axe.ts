// Accessibility checks in the browser tests: axe-core run inside the page playwright drives.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const BLOCKING: ImpactValue[] = ['serious', 'critical'];

/**
 * The serious and critical axe-core violations of what the page shows now, one readable line per element
 * ("color-contrast (serious) Elements must meet minimum color contrast ratio thresholds: .badge — Fix
 * ...'). The script goes in through evaluate, which the pages' Content-Security-Policy does not block.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results: AxeResults = await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run(),
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

// The role walk of both web apps: on a page, use every enabled control once, as a person would, and say
// which answered 403. A list of known controls misses the ones added later; this finds them.
import type { Locator, Page } from 'playwright-core';
import { openPage, settled, trackRequests } from './axe.ts';

/** Controls that end the walk (or a dialog) rather than test a permission. */
const LEAVES = /^(Sign out|Close|Cancel|Back|Keep editing)?$/;
const DELETES = /^Delete\b/;

const accessibleName = async (control: Locator) =>
  ((await control.getAttribute('aria-label')) ?? (await control.textContent()) ?? '').trim();

/**
 * Uses every enabled button in the `main` landmark of the page at `url` once per name (rows' buttons
 * differ only by the quoted name of their row), confirming a dialog it opens with its last enabled
 * choice, and returns how many it used and, for each that got a 403, which.
 */
export async function useEveryControl(
  page: Page,
  url: string,
): Promise<{ used: number; refusals: string[] }> {
  trackRequests(page);
  await openPage(page, url);
  const target = new URL(url, page.url()).href;
  const byKind = new Map<string, string>();
  for (const button of await page.getByRole('main').getByRole('button').all()) {
    const name = await accessibleName(button);
    if (name && !LEAVES.test(name) && (await button.isEnabled()))
      byKind.set(name.replace(/"[^"]*"/g, '"…"'), name);
  }
  const refusals: string[] = [];
  let used = 0;
  // Deleting goes last: the page's other controls are used while there is still something to use them on.
  const names = [...byKind.values()].sort((a, b) => Number(DELETES.test(a)) - Number(DELETES.test(b)));
  for (const name of names) {
    if (page.url() !== target) await openPage(page, url);
    const button = page.getByRole('main').getByRole('button', { name, exact: true }).first();
    if (!(await button.isVisible()) || !(await button.isEnabled())) continue;
    const refused: string[] = [];
    const record = (response: { status(): number; url(): string }) => {
      if (response.status() === 403) refused.push(new URL(response.url()).pathname);
    };
    page.on('response', record);
    await button.click();
    await settled(page);
    const dialog = page.getByRole('dialog').last();
    if (await dialog.isVisible()) {
      for (const choice of (await dialog.getByRole('button').all()).reverse()) {
        if (LEAVES.test(await accessibleName(choice)) || !(await choice.isEnabled())) continue;
        await choice.click();
        break;
      }
      await settled(page);
      if (await dialog.isVisible()) await page.keyboard.press('Escape');
    }
    page.off('response', record);
    used += 1;
    if (refused.length) refusals.push(`${url}: "${name}" → 403 from ${refused.join(', ')}`);
  }
  return { used, refusals };
}

/** The pages the navigation landmark links to, the API's own (its docs) left out. */
export async function navigationPages(page: Page): Promise<string[]> {
  const links = await page
    .getByRole('navigation')
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
  return links.filter((href) => !href.startsWith('/api/'));
}

/** useEveryControl on each of `urls` in turn, its counts and refusals added up. */
export async function walkPages(page: Page, urls: string[]) {
  const walked = { used: 0, refusals: [] as string[] };
  for (const url of urls) {
    const found = await useEveryControl(page, url);
    walked.used += found.used;
    walked.refusals.push(...found.refusals);
  }
  return walked;
}

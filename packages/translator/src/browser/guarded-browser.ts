import { accessSync, constants } from 'node:fs';
import type { Browser, BrowserContext, BrowserType, Page } from 'playwright-core';
import { CHROMIUM_ARGS, HostAllowlist } from '@app/server-kit';
import { PageGuard } from './page-guard.ts';

/** Whether pages can be rendered here, and why not. */
export interface BrowserAvailability {
  available: boolean;
  reason?: string | undefined;
}

/** A page opened by GuardedBrowser, and what its visit needs besides. */
export interface GuardedPage {
  page: Page;
  /** Why the browser may not fetch an address (undefined: it may). */
  refusal(url: string): Promise<string | undefined>;
  /** Why a redirect the page took reached a refused address, if one did. */
  tainted(): Promise<string | undefined>;
  close(): Promise<void>;
}

const VIEWPORT = { width: 1280, height: 800 };

/**
 * Headless Chromium (Debian's, through playwright-core) for pages of users' sites — screenshots and SEO
 * mode's prerendering. Every request a page makes passes the guard (loopback, private, link-local and
 * metadata addresses refused after resolution unless the allowlist names the host); Chromium follows a
 * redirect without asking again, so a page that took one to a refused address is `tainted` and its
 * content must not be used.
 */
export class GuardedBrowser {
  private readonly allowlist: HostAllowlist;

  constructor(
    private readonly chromiumPath: string,
    allowlist: string[],
  ) {
    this.allowlist = new HostAllowlist(allowlist);
  }

  async availability(): Promise<BrowserAvailability> {
    try {
      accessSync(this.chromiumPath, constants.X_OK);
    } catch {
      return {
        available: false,
        reason: `No Chromium at ${this.chromiumPath}: install it (Debian: apt-get install chromium) or set TRANSLATOR_CHROMIUM_PATH.`,
      };
    }
    if (!(await loadChromium()))
      return { available: false, reason: 'The playwright-core package is not installed.' };
    return { available: true };
  }

  async launch(): Promise<Browser> {
    const chromium = await loadChromium();
    if (!chromium) throw new Error('The playwright-core package is not installed.');
    return chromium.launch({
      headless: true,
      executablePath: this.chromiumPath,
      // Chromium's sandbox cannot start as root; as any other user it stays on.
      args: process.getuid?.() === 0 ? ['--no-sandbox', ...CHROMIUM_ARGS] : CHROMIUM_ARGS,
      timeout: 30_000,
    });
  }

  /** A page in a context of its own (no cookies, no service workers), every request guarded. */
  async open(browser: Browser, timeoutMs: number): Promise<GuardedPage> {
    const guard = new PageGuard(this.allowlist);
    const context: BrowserContext = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    await page.route('**/*', async (route) => {
      const reason = await guard.refusal(route.request().url());
      if (reason) await route.abort('blockedbyclient').catch(() => {});
      else await route.continue().catch(() => {});
    });
    const redirectsRefused: Promise<string | undefined>[] = [];
    page.on('request', (request) => {
      if (request.redirectedFrom()) redirectsRefused.push(guard.refusal(request.url()));
    });
    return {
      page,
      refusal: (url) => guard.refusal(url),
      tainted: async () => (await Promise.all(redirectsRefused)).find(Boolean),
      close: () => context.close().catch(() => {}),
    };
  }
}

let loaded: Promise<BrowserType | undefined> | undefined;

/** playwright-core's Chromium driver, loaded on first use (undefined when the package is missing). */
function loadChromium(): Promise<BrowserType | undefined> {
  loaded ??= import('playwright-core').then(
    (module) => module.chromium,
    () => undefined,
  );
  return loaded;
}

import { accessSync, constants } from 'node:fs';
import type { Browser, BrowserContext, BrowserType, Page } from 'playwright-core';
import { CHROMIUM_ARGS, ForwardProxy, HostAllowlist, proxiedChromiumArgs } from '@app/server-kit';
import { chromiumLauncher } from './chromium-launcher.ts';
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
 * mode's prerendering — as an unprivileged user in its sandbox. Its one way out is a forward proxy of its
 * own (ForwardProxy): every connection — pages, WebSockets, each redirect hop — meets the outbound
 * policy after resolution (loopback, private, link-local and metadata addresses refused unless the
 * allowlist names the host). The request guard stays as a second layer: it aborts refused requests
 * before they leave, and a page that took a redirect to a refused address is `tainted`.
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

  /** A browser with a proxy of its own, closed with it. */
  async launch(): Promise<Browser> {
    const chromium = await loadChromium();
    if (!chromium) throw new Error('The playwright-core package is not installed.');
    const proxy = await ForwardProxy.start({ allowlist: this.allowlist });
    const launcher = await chromiumLauncher(this.chromiumPath).catch(async (error: unknown) => {
      await proxy.close();
      throw error;
    });
    try {
      const browser = await chromium.launch({
        headless: true,
        executablePath: launcher.path,
        chromiumSandbox: true,
        // Playwright answers the proxy's challenge with these; the flags after say the rest.
        proxy: { server: proxy.url, ...proxy.login },
        args: [...CHROMIUM_ARGS, ...proxiedChromiumArgs(proxy.url)],
        // Nothing of the service's environment (database URL, secrets) reaches the browser.
        env: { PATH: '/usr/bin:/bin' },
        timeout: 30_000,
      });
      browser.on('disconnected', () => void proxy.close());
      return browser;
    } catch (error) {
      await proxy.close();
      throw error;
    } finally {
      await launcher.remove();
    }
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

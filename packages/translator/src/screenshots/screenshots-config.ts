import { envReader, type EnvReader } from '@app/server-kit';

/** How the translator takes screenshots of the pages its phrases were seen on. */
export interface ScreenshotConfig {
  /** `TRANSLATOR_CHROMIUM_PATH`: the Chromium binary; capture is off while it is missing. */
  chromiumPath: string;
  /**
   * `TRANSLATOR_SCREENSHOT_ALLOWLIST`: `host` or `host:port` entries the browser may reach although they
   * resolve to a loopback or private address (a staging site on the internal network).
   */
  allowlist: string[];
  /** Phrases one run captures at most (more wait for the next run). */
  perRun: number;
  /** How long a page may take to load, and each step on it. */
  pageTimeoutMs: number;
  /** The wait after phrases are registered before a run, so a burst of pages makes one run. */
  debounceMs: number;
  /** How often a worker looks for phrases without a screenshot in every project (registrations handled by another process). */
  pollMs: number;
  /** Hours before a failed capture is tried again on its own (an explicit capture retries at once). */
  retryFailedHours: number;
  /** The largest image kept, in bytes; a larger one is taken again of a smaller region. */
  maxBytes: number;
}

export function readScreenshotConfig(env: EnvReader = envReader()): ScreenshotConfig {
  return {
    chromiumPath: env.string('TRANSLATOR_CHROMIUM_PATH', '/usr/bin/chromium'),
    allowlist: env.hosts('TRANSLATOR_SCREENSHOT_ALLOWLIST'),
    perRun: env.int('TRANSLATOR_SCREENSHOTS_PER_RUN', 50, { min: 1, max: 1000 }),
    pageTimeoutMs: env.int('TRANSLATOR_SCREENSHOT_TIMEOUT_S', 10, { min: 1, max: 120 }) * 1000,
    debounceMs: 5_000,
    pollMs: 60_000,
    retryFailedHours: 24,
    maxBytes: 200 * 1024,
  };
}

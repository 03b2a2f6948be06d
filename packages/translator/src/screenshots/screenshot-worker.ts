import type { FastifyBaseLogger } from 'fastify';
import { allowedPageOrigin } from '../projects/origins.ts';
import type { ScreenshotConfig } from './screenshots-config.ts';
import type { ChromiumCapturer, PageVisit } from './capturer.ts';
import type { PendingShot, ScreenshotsRepository } from './screenshots-repository.ts';

/**
 * What the worker asks of the projects: whether one has screenshots on, the origins its pages may be on
 * (as they are now), and every project's id.
 */
export interface ScreenshotProjects {
  enabled(projectId: number): Promise<boolean>;
  allowedOrigins(projectId: number): Promise<readonly string[]>;
  ids(): Promise<number[]>;
}

/**
 * Takes the screenshots: for each project that asked (phrases registered, an explicit capture, the
 * periodic look over every project), the phrases without one, grouped by page — one browser per run,
 * one page at a time, at most `perRun` phrases a run (a run that hit the cap is followed by another).
 * Runs only where it was started (processes with workers); `wake` elsewhere just marks the project.
 * Only a page on the project's allowed origins is opened, whatever was recorded earlier (pages stored
 * before registration checked them, or by the project key): a phrase seen on no such page gets the
 * reason instead of a screenshot.
 */
export class ScreenshotWorker {
  /** Projects to look at on the next run, and whether their failed captures are tried again at once. */
  private readonly due = new Map<number, { retryFailed: boolean }>();
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stopping = false;

  constructor(
    private readonly config: ScreenshotConfig,
    private readonly repository: ScreenshotsRepository,
    private readonly capturer: ChromiumCapturer,
    private readonly projects: ScreenshotProjects,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.started = true;
    this.poll = setInterval(() => void this.sweep(), this.config.pollMs);
    this.poll.unref();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Marks the project for a run in `delayMs` (a run already planned sooner keeps its time). */
  wake(projectId: number, { retryFailed = false, delayMs = this.config.debounceMs } = {}): void {
    const known = this.due.get(projectId);
    this.due.set(projectId, { retryFailed: retryFailed || Boolean(known?.retryFailed) });
    this.schedule(delayMs);
  }

  /** Runs now (after any run in progress) over the projects marked so far; resolves when it is done. */
  async runNow(): Promise<void> {
    await this.running;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.run();
  }

  private schedule(delayMs: number) {
    if (!this.started || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, delayMs);
    this.timer.unref();
  }

  /** Marks every project with screenshots on (the worker of a process that did not see the registrations). */
  private async sweep() {
    try {
      for (const id of await this.projects.ids()) if (await this.projects.enabled(id)) this.wake(id);
    } catch (error) {
      this.log.warn({ err: error }, 'screenshots: could not list the projects');
    }
  }

  private run(): Promise<void> {
    if (this.running) {
      // One run at a time: the next picks up what was marked meanwhile.
      return this.running.then(() => this.schedule(0));
    }
    this.running = this.capture()
      .catch((error: unknown) => this.log.error({ err: error }, 'screenshots: the run failed'))
      .finally(() => {
        this.running = undefined;
        if (this.due.size) this.schedule(1_000);
      });
    return this.running;
  }

  private async capture() {
    const due = [...this.due];
    this.due.clear();
    const work: { projectId: number; shots: PageShot[] }[] = [];
    const unopenable: { projectId: number; phraseId: number }[] = [];
    let room = this.config.perRun;
    let more = false;
    for (const [projectId, { retryFailed }] of due) {
      if (room <= 0 || !(await this.projects.enabled(projectId))) {
        if (room <= 0) this.due.set(projectId, { retryFailed });
        continue;
      }
      const before = retryFailed
        ? new Date().toISOString()
        : new Date(Date.now() - this.config.retryFailedHours * 3_600_000).toISOString();
      const origins = await this.projects.allowedOrigins(projectId);
      const mayOpen = (url: string) => allowedPageOrigin(origins, url) !== undefined;
      const pending = await this.repository.pending(projectId, room + 1, before, mayOpen);
      if (pending.length > room) {
        more = true;
        pending.length = room;
        this.due.set(projectId, { retryFailed });
      }
      room -= pending.length;
      const shots = pending.filter((shot): shot is PageShot => shot.url !== undefined);
      for (const shot of pending)
        if (shot.url === undefined) unopenable.push({ projectId, phraseId: shot.phraseId });
      if (shots.length) work.push({ projectId, shots });
    }
    for (const { projectId, phraseId } of unopenable)
      await this.repository.save(projectId, phraseId, '', { error: NO_ALLOWED_PAGE });
    if (unopenable.length) this.log.info({ phrases: unopenable.length }, 'screenshots: no allowed page');
    if (!work.length) return;
    if (!(await this.capturer.availability()).available) return;
    let taken = 0;
    await this.capturer.session(async (visit) => {
      for (const { projectId, shots } of work) {
        for (const page of byPage(shots)) {
          if (this.stopping) return;
          const outcomes = await visit(page);
          for (const [phraseId, outcome] of outcomes) {
            await this.repository.save(projectId, phraseId, page.url, outcome);
            if (outcome.png) taken += 1;
          }
        }
      }
    });
    this.log.info({ taken, more }, 'screenshots: run finished');
  }
}

const NO_ALLOWED_PAGE =
  'No page this phrase was seen on is an http(s) page on the project’s allowed origins.';

type PageShot = PendingShot & { url: string };

/** The shots grouped by the page they are taken on, in order. */
function byPage(shots: PageShot[]): PageVisit[] {
  const pages = new Map<string, PageVisit>();
  for (const shot of shots) {
    const page = pages.get(shot.url) ?? { url: shot.url, phrases: [] };
    page.phrases.push({ phraseId: shot.phraseId, key: shot.key });
    pages.set(shot.url, page);
  }
  return [...pages.values()];
}

import { notFound } from '@app/server-kit';
import { fail } from '../errors/catalogue.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { ChromiumCapturer } from './capturer.ts';
import type { ScreenshotsRepository } from './screenshots-repository.ts';
import type { ScreenshotWorker } from './screenshot-worker.ts';

export interface ScreenshotStatus {
  /** The project's `screenshotsEnabled` setting. */
  enabled: boolean;
  /** Whether this translator can take screenshots (Chromium is installed), and why not. */
  available: boolean;
  reason: string | null;
  /** Phrases with a screenshot, phrases whose capture failed, phrases waiting for one. */
  captured: number;
  failed: number;
  pending: number;
}

/** Screenshots as context: where each phrase appears, for reviewers and AI jobs. */
export class ScreenshotsService {
  constructor(
    private readonly repository: ScreenshotsRepository,
    private readonly capturer: ChromiumCapturer,
    private readonly worker: ScreenshotWorker,
    private readonly projects: ProjectsService,
  ) {}

  async status(projectId: number): Promise<ScreenshotStatus> {
    const [settings, availability, counts, pending] = await Promise.all([
      this.projects.settings(projectId),
      this.capturer.availability(),
      this.repository.counts(projectId),
      this.repository.countPending(projectId),
    ]);
    return {
      enabled: settings.screenshotsEnabled,
      available: availability.available,
      reason: availability.reason ?? null,
      ...counts,
      pending,
    };
  }

  /**
   * Asks for the screenshots of every phrase without one (failed ones included) now; answers how many
   * will be taken in this run. Refused when the project has screenshots off or Chromium is missing.
   */
  async capture(projectId: number, perRun: number): Promise<{ queued: number; pending: number }> {
    const settings = await this.projects.settings(projectId);
    if (!settings.screenshotsEnabled) throw fail('screenshots_disabled');
    const availability = await this.capturer.availability();
    if (!availability.available) throw fail('screenshots_unavailable', availability.reason);
    const pending = await this.repository.countPending(projectId, new Date().toISOString());
    this.worker.wake(projectId, { retryFailed: true, delayMs: 0 });
    return { queued: Math.min(pending, perRun), pending };
  }

  /** Phrases were registered from a page: their screenshots are taken after the debounce. */
  async registered(projectId: number): Promise<void> {
    if ((await this.projects.settings(projectId)).screenshotsEnabled) this.worker.wake(projectId);
  }

  /** The phrase's screenshot (PNG), or not_found. */
  async image(projectId: number, phraseId: number): Promise<Buffer> {
    const row = await this.repository.image(projectId, phraseId);
    if (!row?.png) throw notFound(`Phrase ${phraseId} has no screenshot.`);
    return Buffer.from(row.png);
  }

  /** The screenshots of these phrases that have one, by phrase id (an AI job's context). */
  images(projectId: number, phraseIds: number[]): Promise<Map<number, Buffer>> {
    return this.repository.images(projectId, phraseIds);
  }
}

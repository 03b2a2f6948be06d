import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, type ReadStream } from 'node:fs';
import { open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { notFound } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import type { ProjectsRepository } from '../projects/projects-repository.ts';
import { writeSnapshot } from './snapshot.ts';
import { fail } from '../errors/catalogue.ts';
import type { ChangeFeed } from '../changes.ts';
import { checkSnapshot, previewSnapshot, restoreSnapshot, RestoreError } from './restore.ts';
import type { RestorePreview } from './restore-preview-repository.ts';
import { isEarlierFormat, replaceWithCurrentFormat, toCurrentFormat } from './format.ts';

export interface Backup {
  filename: string;
  size: number;
  created: string;
}

interface StoredBackup extends Backup {
  auto: boolean;
}

/** `translator-p<project>-<UTC time>[-auto].sqlite`; nothing else is ever read or deleted. */
const NAME = /^translator-p(\d{1,10})-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z(-auto)?\.sqlite$/;

interface Parsed {
  projectId: number;
  created: string;
  auto: boolean;
}

export function parseBackupName(filename: string): Parsed | undefined {
  const m = NAME.exec(filename);
  if (!m) return undefined;
  return {
    projectId: Number(m[1]),
    created: `${m[2]}T${m[3]}:${m[4]}:${m[5]}.${m[6]}Z`,
    auto: Boolean(m[7]),
  };
}

const backupName = (projectId: number, time: Date, auto: boolean) =>
  `translator-p${projectId}-${time.toISOString().replace(/[:.]/g, '-')}${auto ? '-auto' : ''}.sqlite`;

/**
 * Per-project backups in TRANSLATOR_BACKUP_DIR: each a SQLite file holding that project's data only (a
 * key holder never gets another project's rows). Files are written under a temporary name and renamed,
 * so a listed backup is always complete.
 */
export class BackupsService {
  readonly dir: string;
  /** The manual backup under way per project (see createManual). */
  private readonly manualQueue = new Map<number, Promise<unknown>>();

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly projects: ProjectsRepository,
    private readonly changes: ChangeFeed,
  ) {
    this.dir = resolve(ctx.config.backup.dir);
  }

  async list(projectId: number): Promise<Backup[]> {
    return (await this.stored(projectId)).map(({ auto: _auto, ...backup }) => backup);
  }

  /** The project's backups, newest first, each marked automatic or manual. */
  private async stored(projectId: number): Promise<StoredBackup[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const backups: StoredBackup[] = [];
    for (const filename of names) {
      const parsed = parseBackupName(filename);
      if (!parsed || parsed.projectId !== projectId) continue;
      const info = await stat(join(this.dir, filename)).catch(() => undefined);
      if (info?.isFile())
        backups.push({ filename, size: info.size, created: parsed.created, auto: parsed.auto });
    }
    return backups.sort((a, b) => b.created.localeCompare(a.created));
  }

  /** Deletes the project's automatic (or manual) backups beyond the newest `keep`. */
  private async prune(projectId: number, auto: boolean, keep: number) {
    const kind = (await this.stored(projectId)).filter((backup) => backup.auto === auto);
    for (const old of kind.slice(keep)) await rm(join(this.dir, old.filename), { force: true });
  }

  /**
   * A backup asked for by a key holder: at most one per project per `manualIntervalSeconds` (429 with
   * Retry-After), and only the newest `manualKeep` are kept, so the disk cannot be filled through the API.
   * Calls for one project are taken one at a time in this process.
   */
  createManual(projectId: number): Promise<Backup> {
    const run = (this.manualQueue.get(projectId) ?? Promise.resolve()).then(() => this.makeManual(projectId));
    const tail = run.catch(() => undefined);
    this.manualQueue.set(projectId, tail);
    void tail.then(() => {
      if (this.manualQueue.get(projectId) === tail) this.manualQueue.delete(projectId);
    });
    return run;
  }

  private async makeManual(projectId: number): Promise<Backup> {
    const { manualIntervalSeconds, manualKeep } = this.ctx.config.backup;
    const newest = (await this.stored(projectId)).find((backup) => !backup.auto);
    const waitMs = newest ? Date.parse(newest.created) + manualIntervalSeconds * 1000 - Date.now() : 0;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw fail(
        'rate_limited',
        `A project may make one manual backup every ${manualIntervalSeconds} seconds; try again in ${seconds} seconds.`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
    const backup = await this.create(projectId);
    await this.prune(projectId, false, manualKeep);
    return backup;
  }

  /** A backup name of the project for now that no backup has yet. */
  private async freeName(projectId: number, auto: boolean): Promise<string> {
    const existing = new Set((await this.list(projectId)).map((b) => b.filename));
    let time = new Date();
    while (existing.has(backupName(projectId, time, auto))) time = new Date(time.getTime() + 1);
    return backupName(projectId, time, auto);
  }

  async create(projectId: number, { auto = false } = {}): Promise<Backup> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const filename = await this.freeName(projectId, auto);
    const temporary = join(this.dir, `.partial-${randomUUID()}`);
    try {
      await writeSnapshot(this.ctx, projectId, temporary);
      await rename(temporary, join(this.dir, filename));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const info = await stat(join(this.dir, filename));
    return { filename, size: info.size, created: parseBackupName(filename)!.created };
  }

  /** A fresh snapshot in a temporary file, for download; the caller removes it. */
  async snapshotFile(projectId: number): Promise<{ path: string; filename: string }> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `.download-${randomUUID()}`);
    try {
      await writeSnapshot(this.ctx, projectId, path);
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { path, filename: backupName(projectId, new Date(), false) };
  }

  /**
   * The path of one backup of the project. Anything not named like a backup is refused (400) before the
   * disk is touched; another project's backup is 404, like a missing one.
   */
  private pathOf(projectId: number, filename: string): string {
    const parsed = parseBackupName(filename);
    if (!parsed || basename(filename) !== filename) {
      throw fail('invalid_filename', 'Not a backup file name.', {
        filename: 'must be a name from the backup list',
      });
    }
    if (parsed.projectId !== projectId) throw notFound('Backup not found.');
    const path = resolve(this.dir, filename);
    if (dirname(path) !== this.dir) throw fail('invalid_filename', 'Not a backup file name.');
    return path;
  }

  /**
   * One stored backup of the project, opened for download (the stream owns the file handle). A backup
   * written before the current format (on SQLite it held the deployment's accounts) is brought up to
   * date on disk first.
   */
  async open(projectId: number, filename: string): Promise<{ stream: ReadStream; size: number }> {
    const path = this.pathOf(projectId, filename);
    if (isEarlierFormat(path)) replaceWithCurrentFormat(path, join(this.dir, `.upgrade-${randomUUID()}`));
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('Backup not found.');
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw notFound('Backup not found.');
      return { stream: handle.createReadStream(), size: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * What restoring one of the project's backups would change or, unless `dryRun`, restores it: the
   * project's rows become the backup's, all at once; its keys stay as they are.
   */
  async restore(projectId: number, filename: string, dryRun: boolean): Promise<RestorePreview> {
    const path = await this.existing(projectId, filename);
    const preview = await asBackupError(() => previewSnapshot(this.ctx, path, projectId));
    if (dryRun) return preview;
    await asBackupError(() => restoreSnapshot(this.ctx, path, { replace: true, into: projectId }));
    await this.changes.announce('keys', projectId);
    await this.changes.announce('data', projectId);
    return preview;
  }

  /**
   * Keeps an uploaded file (streamed to disk, at most TRANSLATOR_BACKUP_UPLOAD_MAX_MB, else 413) as a
   * manual backup of the project once it is checked to be one (an undamaged backup of this project, from
   * this or an earlier version); it can then be previewed and restored.
   */
  async upload(projectId: number, content: Readable): Promise<Backup> {
    const maxBytes = this.ctx.config.backup.uploadMaxBytes;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = join(this.dir, `.upload-${randomUUID()}`);
    try {
      await pipeline(content, atMost(maxBytes), createWriteStream(temporary, { mode: 0o600 }));
      await asBackupError(async () => checkSnapshot(temporary, projectId));
      if (isEarlierFormat(temporary)) toCurrentFormat(temporary);
      const filename = await this.freeName(projectId, false);
      await rename(temporary, join(this.dir, filename));
      await this.prune(projectId, false, this.ctx.config.backup.manualKeep);
      const info = await stat(join(this.dir, filename));
      return { filename, size: info.size, created: parseBackupName(filename)!.created };
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** The path of one of the project's backups that exists (404 if not). */
  private async existing(projectId: number, filename: string): Promise<string> {
    const path = this.pathOf(projectId, filename);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw notFound('Backup not found.');
    return path;
  }

  /** Deletes one backup of the project. */
  async delete(projectId: number, filename: string): Promise<void> {
    const path = this.pathOf(projectId, filename);
    try {
      await rm(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('Backup not found.');
      throw error;
    }
  }

  /**
   * Makes the automatic backups that are due (newest older than the interval) and prunes old ones. Stored
   * backups of an earlier format are brought up to date on the way, so none stays on disk with the
   * deployment's accounts for long.
   */
  async runDue(now = Date.now()): Promise<number> {
    const { intervalHours, keep } = this.ctx.config.backup;
    let made = 0;
    for (const id of await this.projects.ids()) {
      for (const backup of await this.stored(id)) {
        const path = join(this.dir, backup.filename);
        if (isEarlierFormat(path)) replaceWithCurrentFormat(path, join(this.dir, `.upgrade-${randomUUID()}`));
      }
      const newestAuto = (await this.stored(id)).find((backup) => backup.auto);
      const newest = newestAuto ? Date.parse(newestAuto.created) : 0;
      if (now - newest >= intervalHours * 3_600_000) {
        await this.create(id, { auto: true });
        made += 1;
      }
      await this.prune(id, true, keep);
    }
    return made;
  }
}

/** Runs a restore step, turning what is wrong with the file into a 422 `invalid_backup` with the reason. */
async function asBackupError<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof RestoreError)
      throw fail('invalid_backup', `The backup cannot be restored: ${error.message}.`);
    throw error;
  }
}

/** A pipeline step that passes at most `maxBytes` on, and fails the stream with a 413 beyond. */
function atMost(maxBytes: number) {
  return async function* (source: AsyncIterable<Buffer>) {
    let size = 0;
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) {
        throw Object.assign(new Error(`The file is larger than ${maxBytes / 2 ** 20} MiB.`), {
          statusCode: 413,
        });
      }
      yield chunk;
    }
  };
}

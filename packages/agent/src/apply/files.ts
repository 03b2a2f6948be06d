import { readFile, rename, rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface FileContent {
  path: string;
  content: string;
}

/** Writes through a temporary file and a rename, so readers see the old file or the new, never half. */
async function replace(path: string, content: string) {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.site-agent-${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o644 });
  await rename(temporary, path);
}

const readOrNull = (path: string) => readFile(path, 'utf8').catch(() => null);

/** The files of one service that differ from what is on disk, swapped in together and restorable. */
export class FileSwap {
  private constructor(private readonly changes: { path: string; next: string; previous: string | null }[]) {}

  static async prepare(files: FileContent[]): Promise<FileSwap> {
    const changes = [];
    for (const file of files) {
      const previous = await readOrNull(file.path);
      if (previous !== file.content) changes.push({ path: file.path, next: file.content, previous });
    }
    return new FileSwap(changes);
  }

  get changedPaths(): string[] {
    return this.changes.map((change) => change.path);
  }

  async swapIn() {
    for (const change of this.changes) await replace(change.path, change.next);
  }

  async restore() {
    for (const change of this.changes) {
      if (change.previous === null) await rm(change.path, { force: true });
      else await replace(change.path, change.previous);
    }
  }
}

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order a run starts its files in. The real-engine file first: minutes long, on a worker of its own
 * from the start, so that it does not start late and leave the other worker idle at the end. Beside it
 * the API and unit tests, then the web apps' browser tests, so that the engines' image pulls and
 * container starts (on fuse-overlayfs, on a fresh machine's overlay root, most of a core) do not share
 * the machine with the browser tests' waits for a page. Within each kind, vitest's order: the
 * largest files first on a clean clone (CI), which has no durations yet.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((file, index) => ({ file, index, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}

function rank(file: TestSpecification): number {
  if (file.project.name === 'real-engines') return 0;
  if (/\/packages\/[^/]+-web\/test\//.test(file.moduleId)) return 2;
  return 1;
}

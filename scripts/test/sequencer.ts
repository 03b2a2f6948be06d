import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order a run starts its files in: the longest first, so that no long file starts last and leaves
 * the other worker idle at the end. On a clean clone (CI) vitest has no durations yet and starts the
 * largest files first; the longest are known by kind: the real-engine file (minutes, on a worker of its
 * own from the start), then the web apps' browser tests, then the rest as vitest orders them.
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
  if (/\/packages\/[^/]+-web\/test\//.test(file.moduleId)) return 1;
  return 2;
}

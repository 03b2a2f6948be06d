// A package reaches another only by its name, through what that package exports, never by a relative
// path into the other's folder: every dependency between packages stays declared in a package.json,
// where the dependency check (dependencies.test.ts) and the build see it.
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packages, root, sourceFiles, specifiersOf } from './imports.ts';

describe('package boundaries', () => {
  it.each(packages.map((dir) => [dir.split('/').pop()!, dir]))(
    '%s imports other packages by name only',
    (_name, dir) => {
      const crossing = sourceFiles(dir).flatMap((file) =>
        specifiersOf(file)
          .map(({ specifier }) => specifier)
          .filter((specifier) => specifier.startsWith('.'))
          .filter((specifier) => relative(dir, resolve(dirname(file), specifier)).startsWith('..'))
          .map((specifier) => `${file.slice(dir.length + 1)}: ${specifier}`),
      );
      expect(crossing).toEqual([]);
    },
  );
});

// A web client knows a server by its OpenAPI document (the generated types), never by its code.
describe('web clients', () => {
  it.each(['manager-web', 'translator-web'])(
    '%s’s source imports no server package, not even types',
    (name) => {
      const server = sourceFiles(resolve(root, 'packages', name, 'src')).flatMap((file) =>
        specifiersOf(file)
          .map(({ specifier }) => specifier)
          .filter((specifier) => /^@app\/(manager|translator|server-kit)(\/|$)/.test(specifier))
          .map((specifier) => `${relative(root, file)}: ${specifier}`),
      );
      expect(server).toEqual([]);
    },
  );
});

import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the package holding a module (the nearest one with a package.json): the same whether
 * the module runs from its TypeScript source or from the build in dist/, which may be a level deeper.
 */
export function packageDir(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(`${dir}/package.json`)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}

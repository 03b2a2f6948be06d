import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The path (from the repository root) of a file `npm run generate` writes, on this machine. */
export const absolute = (path: string) => `${root}${path}`;

/** The text formatted as the repository's Prettier settings say for that file. */
export async function formatted(path: string, text: string): Promise<string> {
  return format(text, { ...(await resolveConfig(absolute(path))), filepath: absolute(path) });
}

/** The checked-in text of a generated file. */
export const checkedIn = (file: { path: string }) => readFile(absolute(file.path), 'utf8');

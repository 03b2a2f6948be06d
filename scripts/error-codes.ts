import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { ErrorCatalogue } from '@app/server-kit';
import { MANAGER_ERRORS } from '../packages/manager/src/errors/catalogue.ts';
import { TRANSLATOR_ERRORS } from '../packages/translator/src/errors/catalogue.ts';
import { absolute, formatted } from './generated-file.ts';

/**
 * The error-code unions of the web clients, generated from the services' catalogues so a client can
 * switch on the codes without importing a server package. `npm run generate` rewrites them.
 */
export const ERROR_CODE_FILES = [
  {
    path: 'packages/manager-web/src/api/error-codes.ts',
    source: 'packages/manager/src/errors/catalogue.ts',
    type: 'ManagerErrorCode',
    catalogue: MANAGER_ERRORS,
  },
  {
    path: 'packages/translator-web/src/error-codes.ts',
    source: 'packages/translator/src/errors/catalogue.ts',
    type: 'TranslatorErrorCode',
    catalogue: TRANSLATOR_ERRORS,
  },
] satisfies { path: string; source: string; type: string; catalogue: ErrorCatalogue }[];

/** The file as generation writes it, formatted as the repository's Prettier settings say. */
export async function renderErrorCodes(file: (typeof ERROR_CODE_FILES)[number]): Promise<string> {
  const codes = Object.keys(file.catalogue).map((code) => `  '${code}',`);
  const text = [
    `// Generated from ${file.source} by \`npm run generate\`: do not edit.`,
    '',
    `export const ERROR_CODES = [\n${codes.join('\n')}\n] as const;`,
    '',
    '/** Every error code the API answers with. */',
    `export type ${file.type} = (typeof ERROR_CODES)[number];`,
    '',
  ].join('\n');
  return formatted(file.path, text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of ERROR_CODE_FILES) await writeFile(absolute(file.path), await renderErrorCodes(file));
}

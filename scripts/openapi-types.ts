import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { envReader } from '@app/server-kit';
import { buildManager } from '../packages/manager/src/app.ts';
import { readManagerConfig } from '../packages/manager/src/config.ts';
import { buildTranslator } from '../packages/translator/src/app.ts';
import { readTranslatorConfig } from '../packages/translator/src/config.ts';
import { absolute, formatted } from './generated-file.ts';
import { pathsType, type OpenApiDocument } from './openapi-to-typescript.ts';

/**
 * The OpenAPI document a service serves, built in-process on a throwaway SQLite database in a
 * directory of its own (nothing listens).
 */
async function documentOf(
  build: (dataDir: string, databaseUrl: string) => Promise<{ swagger(): unknown; close(): Promise<void> }>,
): Promise<OpenApiDocument> {
  const dataDir = await mkdtemp(join(tmpdir(), 'openapi-'));
  try {
    const service = await build(dataDir, `sqlite:${join(dataDir, 'service.db')}`);
    try {
      return service.swagger() as OpenApiDocument;
    } finally {
      await service.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const managerDocument = () =>
  documentOf(async (dataDir, databaseUrl) => {
    const env = { DATA_DIR: dataDir, MANAGER_DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' };
    const manager = await buildManager(readManagerConfig(envReader(env)), { role: 'api' });
    await manager.app.ready();
    return { swagger: () => manager.app.swagger(), close: () => manager.close() };
  });

const translatorDocument = () =>
  documentOf(async (dataDir, databaseUrl) => {
    const env = { DATA_DIR: dataDir, TRANSLATOR_DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' };
    const translator = await buildTranslator(readTranslatorConfig(envReader(env)));
    await translator.app.ready();
    return { swagger: () => translator.app.swagger(), close: () => translator.close() };
  });

/**
 * The operation types of the web clients, generated from the services' OpenAPI documents so a client
 * is typed by what the server declares without importing a server package: the `paths` interface, which
 * the lookups of `@app/web-kit` (PathOf, InitArgs, AnswerOf, …) read. `npm run generate` rewrites them.
 */
export const OPENAPI_FILES = [
  { path: 'packages/manager-web/src/api/openapi.ts', service: 'manager', document: managerDocument },
  { path: 'packages/translator-web/src/openapi.ts', service: 'translator', document: translatorDocument },
];

/** The file as generation writes it, formatted as the repository's Prettier settings say. */
export async function renderOpenApiTypes(file: (typeof OPENAPI_FILES)[number]): Promise<string> {
  const text = [
    `// Generated from the ${file.service}'s OpenAPI document by \`npm run generate\`: do not edit.`,
    '',
    pathsType(await file.document()),
  ].join('\n');
  return formatted(file.path, text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of OPENAPI_FILES) await writeFile(absolute(file.path), await renderOpenApiTypes(file));
}

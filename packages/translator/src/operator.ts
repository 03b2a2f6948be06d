import { resolve } from 'node:path';
import { pino } from 'pino';
import type { TranslatorConfig } from './config.ts';
import { createContext } from './app.ts';
import { openStore } from './db/store.ts';
import type { TranslatorContext } from './context.ts';
import { createServices, type TranslatorServices } from './services.ts';
import { restoreSnapshot } from './backups/restore.ts';

/** An operator command's mistake: printed as is, exit status 1. */
export class OperatorError extends Error {}

type Print = (line: string) => void;

/** Runs `work` with the services on the configured database (migrated first), then closes it. */
async function withServices<T>(
  config: TranslatorConfig,
  work: (services: TranslatorServices, ctx: TranslatorContext) => Promise<T>,
): Promise<T> {
  const database = await openStore(config);
  try {
    const ctx = createContext(config, database, pino({ level: config.logLevel }, pino.destination(2)));
    return await work(createServices(ctx), ctx);
  } finally {
    await database.close();
  }
}

/** `project create --name X`: a new project with its default prompt; its API key is printed this once. */
export async function createProject(config: TranslatorConfig, name: string, print: Print): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) throw new OperatorError('--name must be 1 to 200 characters');
  const { project, apiKey } = await withServices(config, ({ projects }) => projects.create(trimmed));
  print(`Created project ${project.id} (${project.name}).`);
  print(`API key: ${apiKey}`);
  print(`Page key: ${project.page_key}`);
  print(
    'Keep the API key secret (`project key <id>` prints it again). Pages hold the page key; add their ' +
      'origins under Settings → Allowed origins in the dashboard.',
  );
}

/** `project list`: ids, names and creation times, never keys. */
export async function listProjects(config: TranslatorConfig, print: Print): Promise<void> {
  const list = await withServices(config, ({ projects }) => projects.list());
  if (!list.length) {
    print('No projects yet (the server creates the default project on its first start).');
    return;
  }
  const width = Math.max(2, ...list.map((p) => String(p.id).length));
  print(`${'ID'.padStart(width)}  CREATED                   NAME`);
  for (const p of list) print(`${String(p.id).padStart(width)}  ${p.created_at.padEnd(24)}  ${p.name}`);
}

function projectIdOf(id: string): number {
  const projectId = /^\d{1,10}$/.test(id) ? Number(id) : 0;
  if (projectId < 1 || projectId > 2_147_483_647)
    throw new OperatorError(`"${id}" is not a project id: give a project id such as 1 (see project list)`);
  return projectId;
}

/** `project key <id>`: the project's full key and page key, for the operator (the server never shows them to an outsider). */
export async function showKeys(config: TranslatorConfig, id: string, print: Print): Promise<void> {
  const projectId = projectIdOf(id);
  const project = await withServices(config, ({ projects }) => projects.find(projectId));
  if (!project) throw new OperatorError(`no project has the id ${projectId}`);
  print(`Project ${project.id} (${project.name})`);
  print(`API key: ${project.api_key}`);
  print(`Page key: ${project.page_key}   (for the pages' script tag; works from the allowed origins only)`);
}

/**
 * `project invite <id> --email <address>`: an owner's invitation to the dashboard, its link printed (the
 * first owner of a project usually comes this way).
 */
export async function inviteOwner(
  config: TranslatorConfig,
  id: string,
  email: string,
  print: Print,
): Promise<void> {
  const projectId = projectIdOf(id);
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim()) || email.length > 254)
    throw new OperatorError(`"${email}" is not an e-mail address`);
  const invite = await withServices(config, async ({ projects, accounts }) => {
    if (!(await projects.find(projectId))) throw new OperatorError(`no project has the id ${projectId}`);
    return accounts.invite(projectId, { email, role: 'owner', languages: [] }, 'operator');
  });
  print(`Invited ${invite.email} as owner of project ${projectId}, until ${invite.expiresAt}.`);
  print(`Link: ${invite.url ?? `<the dashboard's address>${invite.path}`}`);
  if (!invite.url) print('Set TRANSLATOR_PUBLIC_URL to get the whole link.');
}

/**
 * `backup restore <file> [--replace]`: loads the project in the file under its id, with all its rows;
 * a live project with that id is only overwritten with `replace`.
 */
export async function restoreBackup(
  config: TranslatorConfig,
  file: string,
  options: { replace: boolean },
  print: Print,
): Promise<void> {
  const result = await withServices(config, async ({ changes }, ctx) => {
    const restored = await restoreSnapshot(ctx, resolve(file), options);
    // Running servers on PostgreSQL drop what they cached of the project at once.
    await changes.announce('keys', restored.projectId);
    await changes.announce('data', restored.projectId);
    return restored;
  });
  const { rows } = result;
  const what =
    result.replaced === null
      ? `Restored project ${result.projectId} (${result.name})`
      : `Replaced project ${result.projectId} (${result.replaced}) with the backup's project (${result.name})`;
  print(
    `${what} from ${file}: ` +
      `${rows.phrases} phrases, ${rows.translations} translations, ${rows.prompts} prompts, ` +
      `${rows.ai_jobs} AI jobs (${rows.ai_job_items} items).`,
  );
  const { members, invitations } = result.team;
  if (members) print(`${members} members of the backup's team have their role again (accounts by e-mail).`);
  for (const invite of invitations)
    print(
      `Invited ${invite.email} again (no account here): ${config.accounts.publicUrl ?? ''}${invite.path}`,
    );
  print(
    'Running servers pick the change up at once on PostgreSQL, within TRANSLATOR_CACHE_TTL_S seconds on SQLite.',
  );
}

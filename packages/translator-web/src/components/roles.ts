import type { Role } from '../api.ts';

export const ROLE_NAMES: Record<Role, string> = {
  owner: 'Owner',
  manager: 'Manager',
  reviewer: 'Reviewer',
  translator: 'Translator',
  viewer: 'Viewer',
};

/** What each role may do, for the team page. */
export const ROLE_HELP: Record<Role, string> = {
  owner: 'everything, including the keys, the team, reset and restore',
  manager: 'the project’s work and settings, not its keys or team',
  reviewer: 'translates and marks translations reviewed in their languages',
  translator: 'translates in their languages',
  viewer: 'reads everything, changes nothing',
};

export const languageScoped = (role: Role) => role === 'translator' || role === 'reviewer';

/** A role as people read it: "Translator (fr, de)". */
export const roleLabel = (role: Role, languages: string[]) =>
  languageScoped(role) ? `${ROLE_NAMES[role]} (${languages.join(', ')})` : ROLE_NAMES[role];

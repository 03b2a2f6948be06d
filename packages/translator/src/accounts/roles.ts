import type { MemberRole } from '../db/schema.ts';

export const ROLES: readonly MemberRole[] = ['owner', 'manager', 'reviewer', 'translator', 'viewer'];

/**
 * What a route asks of its caller: `read` any member; `translate` saves and deletes translations;
 * `review` marks them reviewed; `manage` runs the project (phrases, languages, settings, glossary,
 * prompts, AI jobs, imports, backups); `own` holds its keys, its members and the irreversible acts
 * (reset, restore). The project key may do everything.
 */
export type Access = 'read' | 'translate' | 'review' | 'manage' | 'own';

const GRANTS: Record<MemberRole, readonly Access[]> = {
  owner: ['read', 'translate', 'review', 'manage', 'own'],
  manager: ['read', 'translate', 'review', 'manage'],
  reviewer: ['read', 'translate', 'review'],
  translator: ['read', 'translate'],
  viewer: ['read'],
};

/** Translators and reviewers work on their languages only; the other roles on every language. */
export const isLanguageScoped = (role: MemberRole) => role === 'translator' || role === 'reviewer';

export interface Membership {
  role: MemberRole;
  languages: readonly string[];
}

export const grants = (member: Membership, access: Access) => GRANTS[member.role].includes(access);

/** Everything a role may do, for the dashboard to show only what it can use. */
export const accessOf = (role: MemberRole): Access[] => [...GRANTS[role]];

/** The languages of `langs` the member may not touch (none for roles that are not scoped). */
export function languagesOutside(member: Membership, langs: readonly string[]): string[] {
  if (!isLanguageScoped(member.role)) return [];
  return langs.filter((lang) => !member.languages.includes(lang));
}

/** A membership as people read it: "translator (fr, de)". */
export const describeRole = (member: Membership) =>
  isLanguageScoped(member.role)
    ? `${member.role} (${member.languages.join(', ') || 'no language'})`
    : member.role;

import type { FieldErrors } from '@app/server-kit';

/** Who single sign-on lets in without an administrator's approval (admin settings). */
export interface SsoAdmission {
  /** E-mail domains (the part after `@`, exact) whose verified addresses are admitted. */
  ssoAllowedDomains: string[];
  /** Groups, any one of which in the groups claim admits a user. */
  ssoAllowedGroups: string[];
  /** The ID token / userinfo claim that lists a user's groups. */
  ssoGroupsClaim: string;
}

export const SSO_ADMISSION_DEFAULTS: SsoAdmission = {
  ssoAllowedDomains: [],
  ssoAllowedGroups: [],
  ssoGroupsClaim: 'groups',
};

export const MAX_ALLOWLIST_ENTRIES = 100;
const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const CLAIM = /^\S{1,255}$/;

const unique = (values: string[]) => [...new Set(values.filter(Boolean))];

/**
 * The admission settings of an update, cleaned (domains lower-cased, blanks and repeats dropped);
 * problems go into `fields` under the names the client sent (`ssoAllowedDomains.<index>`).
 */
export function cleanSsoAdmission(input: Partial<SsoAdmission>, fields: FieldErrors): Partial<SsoAdmission> {
  const next: Partial<SsoAdmission> = {};
  if (input.ssoAllowedDomains !== undefined) {
    const domains = input.ssoAllowedDomains.map((domain) => domain.trim().toLowerCase());
    domains.forEach((domain, index) => {
      if (domain && !DOMAIN.test(domain))
        fields[`ssoAllowedDomains.${index}`] = 'must be an e-mail domain such as example.com';
    });
    next.ssoAllowedDomains = unique(domains);
  }
  if (input.ssoAllowedGroups !== undefined)
    next.ssoAllowedGroups = unique(input.ssoAllowedGroups.map((group) => group.trim()));
  if (input.ssoGroupsClaim !== undefined) {
    next.ssoGroupsClaim = input.ssoGroupsClaim.trim();
    if (!CLAIM.test(next.ssoGroupsClaim))
      fields.ssoGroupsClaim = 'must name the claim that lists the groups (for example groups)';
  }
  return next;
}

/** True when a new single sign-on user with this verified e-mail and these groups is let in at once. */
export function admits(settings: SsoAdmission, email: string, groups: string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return (
    settings.ssoAllowedDomains.includes(domain) ||
    groups.some((group) => settings.ssoAllowedGroups.includes(group))
  );
}

/** A groups claim as providers send it: a list, or one string of names separated by commas or spaces. */
export function groupsIn(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  if (typeof claim === 'string') return claim.split(/[\s,]+/).filter(Boolean);
  return [];
}

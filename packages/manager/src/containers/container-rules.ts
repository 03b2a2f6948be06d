import { isDnsLabel } from '@app/agent/config-values';
import { badRequest, validationFailed, type FieldErrors } from '@app/server-kit';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Bounds on a container's environment: what the API takes, and what is kept from an image. */
export const ENV_LIMITS = { count: 128, keyLength: 256, valueLength: 4096 } as const;

export interface EnvVar {
  key: string;
  value: string;
}

/** A container hostname is one DNS label (letters, digits, inner hyphens; ≤ 63); stored lower-case. */
export function checkHostname(hostname: string): string {
  const value = hostname.trim().toLowerCase();
  if (!isDnsLabel(value)) {
    throw validationFailed({
      hostname: 'must be a DNS label: letters, digits and inner hyphens, at most 63 characters',
    });
  }
  return value;
}

/** The image to run: `template`, or `customTemplate` when template is `custom`. */
export function imageOf(template: string, customTemplate: string | undefined): string {
  const image = template.trim() === 'custom' ? customTemplate?.trim() : template.trim();
  if (!image) {
    throw template.trim() === 'custom'
      ? badRequest('customTemplate is required when template is "custom".', {
          customTemplate: 'is required when template is custom',
        })
      : badRequest('template must not be blank.', { template: 'must not be blank' });
  }
  return image;
}

/**
 * Environment variables as stored: the site defaults, then the caller's (which win). Rows with a blank
 * key are ignored (forms send empty rows); a key that is not a variable name is a 422.
 */
export function mergeEnvironment(defaults: EnvVar[], given: EnvVar[] | undefined): Record<string, string> {
  const fields: FieldErrors = {};
  const result: Record<string, string> = {};
  for (const { key, value } of defaults) if (key) result[key] = value;
  (given ?? []).forEach((entry, index) => {
    const key = entry.key.trim();
    if (!key) return;
    if (!ENV_NAME.test(key)) fields[`environmentVars.${index}.key`] = 'must be a variable name';
    else result[key] = entry.value;
  });
  if (Object.keys(fields).length) throw validationFailed(fields);
  return result;
}

export const blankToNull = (value: string | null | undefined) => value?.trim() || null;

export const sameEnvironment = (a: Record<string, string>, b: Record<string, string>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
};

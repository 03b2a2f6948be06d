import { validationFailed, type FieldErrors } from '@app/server-kit';
import { MIN_PASSWORD_LENGTH } from '@app/server-kit/passwords';
import { fail } from '../errors/catalogue.ts';

const UID = /^[a-z_][a-z0-9_.-]{0,31}$/;
const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface UserFieldsInput {
  uid?: string | undefined;
  mail?: string | undefined;
  userPassword?: string | undefined;
}

/** Model rules for user fields: 422 validation_failed naming each bad field. */
export function checkUserFields(input: UserFieldsInput) {
  const fields: FieldErrors = {};
  if (input.uid !== undefined && !UID.test(input.uid)) {
    fields.uid = 'must start with a lowercase letter or _ and use only a-z, 0-9, _, . and - (at most 32)';
  }
  if (input.mail !== undefined && !MAIL.test(input.mail)) fields.mail = 'must be an e-mail address';
  if (input.userPassword !== undefined && input.userPassword.length < MIN_PASSWORD_LENGTH) {
    fields.userPassword = `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (Object.keys(fields).length) throw validationFailed(fields);
}

/** 404 user_not_found: one answer for a name nobody has and a user who may not be chosen here. */
export const userNotFound = (username: string) =>
  fail('user_not_found', `No active user named "${username}".`);

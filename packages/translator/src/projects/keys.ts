import { randomBytes } from 'node:crypto';

/** The full project key: the spec's 24 characters (18 random bytes in base64url). */
export const API_KEY_LENGTH = 24;
export const newApiKey = () => randomBytes(18).toString('base64url');

/** The publishable page key: its own prefix, so it is told apart from the full key at a glance. */
export const PAGE_KEY_PREFIX = 'tpk_';
export const PAGE_KEY_LENGTH = PAGE_KEY_PREFIX.length + 24;
export const newPageKey = () => PAGE_KEY_PREFIX + randomBytes(18).toString('base64url');
export const isPageKey = (key: string) => key.length === PAGE_KEY_LENGTH && key.startsWith(PAGE_KEY_PREFIX);

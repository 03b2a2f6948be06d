// Generated from packages/translator/src/errors/catalogue.ts by `npm run generate`: do not edit.

export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'request_timeout',
  'conflict',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'validation_failed',
  'rate_limited',
  'headers_too_large',
  'internal_error',
  'service_unavailable',
  'page_key_not_allowed',
  'origin_not_allowed',
  'unknown_language',
  'unknown_phrase',
  'unknown_prompt',
  'slot_mismatch',
  'invalid_file',
  'provider_not_configured',
  'term_exists',
  'default_prompt',
  'job_finished',
  'too_many_streams',
  'invalid_filename',
  'invalid_backup',
] as const;

/** Every error code the API answers with. */
export type TranslatorErrorCode = (typeof ERROR_CODES)[number];

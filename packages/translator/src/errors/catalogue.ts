import { BASE_ERRORS, useCatalogue, type ErrorCatalogue } from '@app/server-kit';

/**
 * Every error code the translator answers with, its status and its default message. A new code goes
 * here first; `fail` and `errorsOf` accept no other, and the web client's union is generated from it.
 */
export const TRANSLATOR_ERRORS = {
  ...BASE_ERRORS,
  page_key_not_allowed: {
    status: 403,
    message: 'A page key (tpk_…) can only register phrases and read translations: use a project API key.',
  },
  origin_not_allowed: {
    status: 403,
    message: 'This page key only works from the project’s allowed origins: add the page’s origin.',
  },
  edit_token_origin: {
    status: 403,
    message:
      'This edit token was made for another page origin: open the page for editing again from the dashboard.',
  },
  unknown_language: {
    status: 422,
    alsoStatus: 404,
    message: 'This language is not configured for the project: add it to settings.languages first.',
  },
  unknown_phrase: { status: 422, message: 'A phrase does not exist in this project: register it first.' },
  unknown_prompt: { status: 422, message: 'No prompt with this id: pick an existing prompt.' },
  slot_mismatch: { status: 422, message: 'Some translations lose or add slot tokens; nothing was saved.' },
  invalid_file: {
    status: 422,
    message: 'The file cannot be read as the format named: check the format and the language it is for.',
  },
  provider_not_configured: {
    status: 422,
    message: 'Set settings.translationProviderApiKey before starting an AI job.',
  },
  term_exists: { status: 409, message: 'This term is already in the glossary for this language.' },
  default_prompt: { status: 409, message: 'Make another prompt the default first.' },
  job_finished: { status: 409, message: 'The job has already finished.' },
  too_many_streams: { status: 429, message: 'Too many open job streams: close some and try again.' },
  invalid_filename: { status: 400, message: 'Not a backup file name: pick one from the list of backups.' },
  invalid_credentials: {
    status: 401,
    message: 'The e-mail address or the password is wrong.',
  },
  csrf_invalid: {
    status: 403,
    message: 'Missing or invalid X-CSRF-Token header: send the csrfToken of your session.',
  },
  project_required: {
    status: 400,
    message: 'Name the project in the X-Project-Id header: signed-in requests act on one project.',
  },
  not_a_member: {
    status: 403,
    message: 'You are not a member of this project: ask one of its owners for an invitation.',
  },
  invite_not_found: {
    status: 404,
    message: 'This invitation does not exist or has expired: ask the project’s owner for a new link.',
  },
  invite_other_account: {
    status: 409,
    message: 'This invitation is for another e-mail address: sign out, then open the link again.',
  },
  last_owner: { status: 409, message: 'A project keeps at least one owner: make someone else owner first.' },
  sso_not_configured: { status: 404, message: 'Single sign-on is not set up on this translator.' },
  screenshots_disabled: {
    status: 409,
    message: 'Screenshots are off for this project: set settings.screenshotsEnabled first.',
  },
  screenshots_unavailable: {
    status: 503,
    message: 'This translator cannot take screenshots: Chromium is missing (see TRANSLATOR_CHROMIUM_PATH).',
  },
  // SEO mode's pages (/seo/…) are the site's, kept out of the API document.
  seo_disabled: {
    status: 404,
    hidden: true,
    message: 'This project serves no translated pages: set seoOrigin in its settings to turn SEO mode on.',
  },
  wrong_host: {
    status: 421,
    hidden: true,
    message:
      'Translated pages are served only on the site’s own host (seoPublicUrl): reach them through the site.',
  },
  browser_unavailable: {
    status: 503,
    hidden: true,
    message:
      'This translator cannot render pages in a browser: Chromium is missing (see TRANSLATOR_CHROMIUM_PATH).',
  },
  seo_busy: {
    status: 503,
    hidden: true,
    message: 'Too many pages are being rendered in the browser at once: try again in a moment.',
  },
  origin_unavailable: {
    status: 502,
    hidden: true,
    message: 'The site did not answer with a page: check that it is up and that seoOrigin is right.',
  },
  invalid_backup: {
    status: 422,
    message: 'The file is not a backup of this project that this version can restore.',
  },
} as const satisfies ErrorCatalogue;

export type TranslatorErrorCode = keyof typeof TRANSLATOR_ERRORS;

export const { fail, failAs, errorsOf } = useCatalogue(TRANSLATOR_ERRORS);

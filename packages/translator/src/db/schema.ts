import type { Generated } from 'kysely';

/** Row types of the translator's tables, as Kysely sees them. Times are ISO strings unless named `_ms`. */
export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  /** SHA-256 of the API key, for lookups. */
  api_key_hash: string;
  /** The API key sealed with SECRET_KEY (the spec shows it back to its holder). */
  api_key_sealed: string;
  /** JSON of the project settings, without the provider key. */
  settings: string;
  provider_key_sealed: string | null;
  /** The publishable page key (`tpk_…`), public by design, stored as it is (unique). */
  page_key: string;
  /** The last origin other than the dashboard's the full key was used from, and when (the warning). */
  full_key_origin: string | null;
  full_key_origin_at: string | null;
  created_at: string;
  updated_at: string;
}

export type PhraseStatus = 'pending' | 'approved' | 'trash';

export interface PhrasesTable {
  id: Generated<number>;
  project_id: number;
  key: string;
  context: string;
  /** SHA-256 of key + NUL + context: the uniqueness judge, whatever the key's length. */
  key_hash: string;
  status: PhraseStatus;
  /** JSON array of {type, index}. */
  var_slots: string;
  slot_count: number;
  /** JSON array of the words in the `{{text:N}}` slots as a page showed them; null until one reports them. */
  slot_texts: string | null;
  /** Day (YYYY-MM-DD, UTC) the phrase was first registered. */
  first_seen_day: string;
  created_at: string;
  updated_at: string;
}

export interface PhraseUrlsTable {
  phrase_id: number;
  project_id: number;
  url: string;
  first_seen_day: string;
}

/** Where a page shows a phrase: one image per phrase (see migration 010), or why there is none. */
export interface PhraseScreenshotsTable {
  phrase_id: number;
  project_id: number;
  /** The page it was taken on. */
  url: string;
  /** The PNG (a Buffer as read); null when the capture failed. */
  png: Uint8Array | null;
  width: number | null;
  height: number | null;
  /** Why the capture failed (null when it worked). */
  error: string | null;
  captured_at: string;
}

export interface TranslationsTable {
  id: Generated<number>;
  project_id: number;
  phrase_id: number;
  lang: string;
  value: string;
  state: Generated<TranslationState>;
  /** An AI job's text for a translation it may not replace (a human or reviewed one). */
  suggestion: string | null;
  /**
   * The source text this translation was made for, when the phrase replaced that text on its page and
   * no person has saved or reviewed the translation since (an outdated translation).
   */
  outdated_from: string | null;
  created_at: string;
  updated_at: string;
}

export type TranslationState = 'machine' | 'human' | 'reviewed';
export type TranslationSource = 'human' | 'ai' | 'import' | 'memory' | 'revert' | 'carried';

/** One change of a translation: a null value is "no translation" (before a creation, after a deletion). */
export interface TranslationHistoryTable {
  id: Generated<number>;
  project_id: number;
  phrase_id: number;
  lang: string;
  old_value: string | null;
  new_value: string | null;
  old_state: TranslationState | null;
  new_state: TranslationState | null;
  source: TranslationSource;
  /** Who made it: `key:<fingerprint>` for a project key, `ai-job:<id>` for an AI job. */
  actor: string;
  /** The entry a revert undid. */
  reverted_id: number | null;
  created_at: string;
}

/** A glossary term: the translation it must get (in `lang`, or every language when ''), or none. */
export interface GlossaryTermsTable {
  id: Generated<number>;
  project_id: number;
  lang: string;
  term: string;
  /** The term as compared for uniqueness (lower case, spaces collapsed). */
  term_key: string;
  translation: string | null;
  do_not_translate: number;
  case_sensitive: number;
  note: string;
  created_at: string;
  updated_at: string;
}

/** A translation people made or approved, kept as the memory of its source text in one language. */
export interface TranslationMemoryTable {
  id: Generated<number>;
  project_id: number;
  lang: string;
  source: string;
  /** sha256 (hex) of `source`. */
  source_hash: string;
  value: string;
  state: TranslationState;
  updated_at: string;
}

export interface PromptsTable {
  id: string;
  project_id: number;
  name: string;
  text: string;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export type AiJobStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface AiJobsTable {
  id: string;
  project_id: number;
  lang: string;
  prompt_id: string | null;
  status: AiJobStatus;
  total: number;
  completed: number;
  failed: number;
  include_screenshots: number;
  error: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  /** Milliseconds spent running so far (across restarts), for the rate behind the time estimate. */
  run_ms: number;
  /** Items the translation memory filled before the machine was asked, and the characters that saved. */
  memory_filled: Generated<number>;
  memory_characters: Generated<number>;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export type AiJobItemState = 'pending' | 'done' | 'failed';

export interface AiJobItemsTable {
  job_id: string;
  phrase_id: number;
  state: AiJobItemState;
}

export interface AccountsTable {
  id: Generated<number>;
  /** Lower-cased; the sign-in name and what an OpenID provider's verified address is matched with. */
  email: string;
  name: string;
  /** argon2id; null for an account that signs in only through the OpenID provider. */
  password_hash: string | null;
  created_at: string;
}

export interface AccountSessionsTable {
  /** SHA-256 of the session cookie. */
  id_hash: string;
  account_id: number;
  csrf_token: string;
  /** The OpenID provider's ID token, for its logout. */
  id_token: string | null;
  expires_at: number;
  created_at: string;
}

export type MemberRole = 'owner' | 'manager' | 'translator' | 'reviewer' | 'viewer';

export interface ProjectMembersTable {
  project_id: number;
  account_id: number;
  role: MemberRole;
  /** JSON array of language codes a translator or reviewer works on ([] for other roles). */
  languages: string;
  created_at: string;
}

export interface ProjectInvitesTable {
  id: Generated<number>;
  project_id: number;
  /** SHA-256 of the token in the invitation link. */
  token_hash: string;
  email: string;
  role: MemberRole;
  languages: string;
  /** Who sent it (an actor, as the history names people). */
  invited_by: string;
  expires_at: string;
  created_at: string;
}

export interface TranslatorDB {
  accounts: AccountsTable;
  account_sessions: AccountSessionsTable;
  project_members: ProjectMembersTable;
  project_invites: ProjectInvitesTable;
  projects: ProjectsTable;
  phrases: PhrasesTable;
  phrase_urls: PhraseUrlsTable;
  phrase_screenshots: PhraseScreenshotsTable;
  translations: TranslationsTable;
  translation_history: TranslationHistoryTable;
  glossary_terms: GlossaryTermsTable;
  translation_memory: TranslationMemoryTable;
  prompts: PromptsTable;
  ai_jobs: AiJobsTable;
  ai_job_items: AiJobItemsTable;
}

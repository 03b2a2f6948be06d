import type { Kysely } from 'kysely';
import type { TranslatorDB } from '../db/schema.ts';
import type { SQLiteDatabase } from '@app/server-kit';

/** What a restore would change, by kind of row: how many there are now and after, and the differences. */
export interface RestorePreview {
  /** The project's name in the backup. */
  name: string;
  phrases: { current: number; restored: number; added: number; removed: number };
  translations: { current: number; restored: number; added: number; removed: number; changed: number };
  /** The first translation changes: what the phrase says now, and what it will say (null: none). */
  changes: { key: string; lang: string; current: string | null; restored: string | null }[];
}

const SHOWN_CHANGES = 50;

type Phrase = { id: number; key: string };
type Translation = { phrase_id: number; lang: string; value: string };

/**
 * Compares the project's phrases and translations with a backup file's (read with the columns every
 * schema version has), by phrase id and language.
 */
export async function compareWithBackup(
  db: Kysely<TranslatorDB>,
  backup: SQLiteDatabase,
  project: { id: number; name: string },
): Promise<RestorePreview> {
  const livePhrases = await db
    .selectFrom('phrases')
    .select(['id', 'key'])
    .where('project_id', '=', project.id)
    .execute();
  const liveTranslations = await db
    .selectFrom('translations')
    .select(['phrase_id', 'lang', 'value'])
    .where('project_id', '=', project.id)
    .execute();
  const backupPhrases = backup.prepare('select id, key from phrases').all() as Phrase[];
  const backupTranslations = backup
    .prepare('select phrase_id, lang, value from translations')
    .all() as Translation[];

  const liveIds = new Set(livePhrases.map((phrase) => phrase.id));
  const backupIds = new Set(backupPhrases.map((phrase) => phrase.id));
  const keys = new Map([...backupPhrases, ...livePhrases].map((phrase) => [phrase.id, phrase.key]));
  const slot = (row: Translation) => `${row.phrase_id}\u0000${row.lang}`;
  const now = new Map(liveTranslations.map((row) => [slot(row), row]));
  const then = new Map(backupTranslations.map((row) => [slot(row), row]));

  const changes: RestorePreview['changes'] = [];
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const id of new Set([...now.keys(), ...then.keys()])) {
    const current = now.get(id);
    const restored = then.get(id);
    if (current?.value === restored?.value) continue;
    counts[!current ? 'added' : !restored ? 'removed' : 'changed'] += 1;
    const row = (current ?? restored)!;
    if (changes.length < SHOWN_CHANGES) {
      changes.push({
        key: keys.get(row.phrase_id) ?? '',
        lang: row.lang,
        current: current?.value ?? null,
        restored: restored?.value ?? null,
      });
    }
  }
  return {
    name: project.name,
    phrases: {
      current: livePhrases.length,
      restored: backupPhrases.length,
      added: backupPhrases.filter((phrase) => !liveIds.has(phrase.id)).length,
      removed: livePhrases.filter((phrase) => !backupIds.has(phrase.id)).length,
    },
    translations: { current: liveTranslations.length, restored: backupTranslations.length, ...counts },
    changes,
  };
}

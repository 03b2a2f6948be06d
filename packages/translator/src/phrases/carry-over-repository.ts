import type { Kysely, Transaction } from 'kysely';
import { slotSignature } from '@app/slots';
import type { TranslatorDB } from '../db/schema.ts';
import { matchScore } from '../memory/match-score.ts';
import { nowIso } from '../common/time.ts';
import { recordHistory } from '../translations/translation-writes-repository.ts';

type Db = Kysely<TranslatorDB> | Transaction<TranslatorDB>;

/** A text this close to the old one (see matchScore) is taken for the old text, changed. */
const MIN_CARRY_SCORE = 60;
/** More new phrases than this in one report is a new page being discovered, not texts being edited. */
const MAX_NEW_PHRASES = 100;
const MAX_CANDIDATES = 1000;

export interface NewPhrase {
  id: number;
  key: string;
  context: string;
}

/**
 * A page reported new phrases: each that replaced an old text where the old one was — a phrase seen on
 * the same URL, with the same context and slots, similar text, not in this report, and translated — gets
 * the old phrase's translations carried over as outdated (each keeping the source text it was made for),
 * and the old phrase's approval. Each old phrase goes to its closest new text, once. In the caller's
 * transaction; returns how many phrases got translations.
 */
export async function carryOverTranslations(
  db: Db,
  projectId: number,
  url: string,
  created: NewPhrase[],
  reported: Set<number>,
): Promise<number> {
  if (!created.length || created.length > MAX_NEW_PHRASES) return 0;
  const candidates = (
    await db
      .selectFrom('phrases as p')
      .innerJoin('phrase_urls as u', 'u.phrase_id', 'p.id')
      .select(['p.id', 'p.key', 'p.context', 'p.status'])
      .where('u.project_id', '=', projectId)
      .where('u.url', '=', url)
      .where('p.status', '!=', 'trash')
      .where('p.context', 'in', [...new Set(created.map((phrase) => phrase.context))])
      .where((eb) =>
        eb.exists(eb.selectFrom('translations as t').select('t.id').whereRef('t.phrase_id', '=', 'p.id')),
      )
      .limit(MAX_CANDIDATES)
      .execute()
  )
    .filter((old) => !reported.has(old.id))
    .map((old) => ({ ...old, signature: slotSignature(old.key) }));

  const pairs: { phrase: NewPhrase; old: (typeof candidates)[number]; score: number }[] = [];
  for (const phrase of created) {
    const signature = slotSignature(phrase.key);
    for (const old of candidates) {
      if (old.context !== phrase.context || old.signature !== signature) continue;
      const score = matchScore(phrase.key, old.key);
      if (score >= MIN_CARRY_SCORE) pairs.push({ phrase, old, score });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const taken = new Set<number>();
  const linked = new Set<number>();
  const now = nowIso();
  for (const { phrase, old } of pairs) {
    if (taken.has(old.id) || linked.has(phrase.id)) continue;
    taken.add(old.id);
    linked.add(phrase.id);
    const translations = await db
      .selectFrom('translations')
      .select(['lang', 'value', 'state'])
      .where('phrase_id', '=', old.id)
      .execute();
    await db
      .insertInto('translations')
      .values(
        translations.map((row) => ({
          project_id: projectId,
          phrase_id: phrase.id,
          lang: row.lang,
          value: row.value,
          state: row.state,
          suggestion: null,
          outdated_from: old.key,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await recordHistory(
      db,
      translations.map((row) => ({
        projectId,
        phraseId: phrase.id,
        lang: row.lang,
        old: undefined,
        next: { value: row.value, state: row.state },
      })),
      { source: 'carried', actor: `phrase:${old.id}` },
    );
    if (old.status === 'approved') {
      await db
        .updateTable('phrases')
        .set({ status: 'approved', updated_at: now })
        .where('id', '=', phrase.id)
        .execute();
    }
  }
  return linked.size;
}

/** What a glossary term asks of translations whose source contains it. */
export interface GlossaryRule {
  term: string;
  /** The translation the term must get; null when it must stay as it is. */
  translation: string | null;
  doNotTranslate: boolean;
  caseSensitive: boolean;
}

/** Where the glossary's rules for a language come from (list rows, Analytics and AI jobs ask). */
export interface GlossaryRules {
  rulesFor(projectId: number, lang: string): Promise<GlossaryRule[]>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Not inside a word: letters, digits and underscores of any script count as word characters. */
const WORD_START = '(?<![\\p{L}\\p{N}_])';
const WORD_END = '(?![\\p{L}\\p{N}_])';

/** Compiled finders, reused across rows (Analytics checks every translation against every term). */
const finders = new Map<string, RegExp>();
const FINDERS_KEPT = 2000;

function finder(text: string, caseSensitive: boolean, wholeWord: boolean): RegExp {
  const key = `${Number(caseSensitive)}${Number(wholeWord)}${text}`;
  let found = finders.get(key);
  if (!found) {
    if (finders.size >= FINDERS_KEPT) finders.clear();
    found = new RegExp(
      `${WORD_START}${escape(text)}${wholeWord ? WORD_END : ''}`,
      caseSensitive ? 'u' : 'iu',
    );
    finders.set(key, found);
  }
  return found;
}

/**
 * The glossary terms a translation does not follow, as one message (undefined when it follows all):
 * a term found in the source (as a whole word) must appear in the translation as its glossary
 * translation, or unchanged when it is do-not-translate. A translation may inflect the term (it needs to
 * start a word, not end one there): "pain" is found in "pains".
 */
export function glossaryMessage(
  source: string,
  translation: string,
  rules: GlossaryRule[],
): string | undefined {
  const broken = rules.flatMap((rule) => {
    if (!finder(rule.term, rule.caseSensitive, true).test(source)) return [];
    const expected = rule.doNotTranslate ? rule.term : rule.translation;
    if (expected === null || finder(expected, rule.caseSensitive, rule.doNotTranslate).test(translation))
      return [];
    return [rule.doNotTranslate ? `“${rule.term}” stays as it is` : `“${rule.term}” is “${expected}”`];
  });
  return broken.length ? `The glossary says: ${broken.join('; ')}.` : undefined;
}

/** The lines an AI prompt gets for the rules whose term appears in one of the texts (none: no lines). */
export function glossaryInstructions(texts: string[], rules: GlossaryRule[]): string {
  const used = rules.filter((rule) =>
    texts.some((text) => finder(rule.term, rule.caseSensitive, true).test(text)),
  );
  if (!used.length) return '';
  const lines = used.map((rule) =>
    rule.doNotTranslate
      ? `- "${rule.term}": keep it exactly as it is (do not translate)`
      : `- "${rule.term}": translate it as "${rule.translation}"`,
  );
  return `Glossary of this product: follow it wherever a term appears.\n${lines.join('\n')}`;
}

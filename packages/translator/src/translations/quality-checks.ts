import { SLOT_TOKEN } from '@app/slots';
import type { Static } from 'typebox';
import type { QualityCheckSchema } from '../common/schemas.ts';
import { glossaryMessage, type GlossaryRule } from '../glossary/glossary-check.ts';

/** What a quality check found wrong with a translation, beside the slots (which a save refuses). */
export type QualityCheck = Static<typeof QualityCheckSchema>;

export const QUALITY_CHECKS: readonly QualityCheck[] = [
  'numbers',
  'leading_space',
  'trailing_space',
  'end_punctuation',
  'length',
  'glossary',
];

export interface QualityIssue {
  check: QualityCheck;
  message: string;
}

/** Digits with their separators, outside slot tokens. */
const DIGITS = /\d+(?:[.,'\u00a0\u202f]\d+)*/g;
/** Full-width and other scripts' sentence ends, read as the Latin one they stand for. */
const END_MARKS: Record<string, string> = {
  '.': '.',
  '。': '.',
  '।': '.',
  '!': '!',
  '！': '!',
  '?': '?',
  '？': '?',
  ':': ':',
  '：': ':',
  ';': ';',
  '；': ';',
  '…': '…',
};
/** Below this many characters of source the length of a translation says little. */
const SHORTEST_MEASURED = 12;
const LONGEST_RATIO = 3;
const SHORTEST_RATIO = 1 / 3;

const numbersOf = (text: string) =>
  (text.replace(SLOT_TOKEN, ' ').match(DIGITS) ?? []).map((n) => n.replace(/\D/g, '')).sort();

/** The sentence end of a text ('' for none), with a trailing ellipsis of dots read as one. */
function endOf(text: string): string {
  const trimmed = text.trimEnd().replace(/\.\.\.$/, '…');
  return END_MARKS[trimmed.at(-1) ?? ''] ?? '';
}

const lengthOf = (text: string) => [...text.replace(SLOT_TOKEN, 'x')].length;

/**
 * The quality checks of a translation against its source: the same numbers, the same spaces at the
 * ends, the same sentence end, a length not out of proportion, and the glossary's terms. Cheap enough to
 * run on every row read.
 */
export function qualityIssues(
  source: string,
  translation: string,
  glossary: GlossaryRule[] = [],
): QualityIssue[] {
  const issues: QualityIssue[] = [];
  const expected = numbersOf(source);
  const found = numbersOf(translation);
  if (expected.join(' ') !== found.join(' '))
    issues.push({
      check: 'numbers',
      message: `The numbers differ: the source has ${list(expected)}, the translation ${list(found)}.`,
    });
  if (/^\s/.test(source) !== /^\s/.test(translation))
    issues.push({
      check: 'leading_space',
      message: /^\s/.test(source)
        ? 'The source starts with a space; the translation does not.'
        : 'The translation starts with a space; the source does not.',
    });
  if (/\s$/.test(source) !== /\s$/.test(translation))
    issues.push({
      check: 'trailing_space',
      message: /\s$/.test(source)
        ? 'The source ends with a space; the translation does not.'
        : 'The translation ends with a space; the source does not.',
    });
  const [sourceEnd, translationEnd] = [endOf(source), endOf(translation)];
  if (sourceEnd !== translationEnd)
    issues.push({
      check: 'end_punctuation',
      message: sourceEnd
        ? `The source ends with “${sourceEnd}”; the translation ${translationEnd ? `with “${translationEnd}”` : 'without a mark'}.`
        : `The translation ends with “${translationEnd}”; the source without a mark.`,
    });
  const sourceLength = lengthOf(source);
  if (sourceLength >= SHORTEST_MEASURED) {
    const ratio = lengthOf(translation) / sourceLength;
    if (ratio > LONGEST_RATIO || ratio < SHORTEST_RATIO)
      issues.push({
        check: 'length',
        message: `The translation is ${ratio > 1 ? `${ratio.toFixed(1)} times as long as` : `${Math.round(ratio * 100)} % of the length of`} the source.`,
      });
  }
  const glossaryBroken = glossaryMessage(source, translation, glossary);
  if (glossaryBroken) issues.push({ check: 'glossary', message: glossaryBroken });
  return issues;
}

const list = (numbers: string[]) => (numbers.length ? numbers.join(', ') : 'none');

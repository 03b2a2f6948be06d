export interface VarSlot {
  type: string;
  index: number;
}

/** A slot token: `{{number:0}}`, `{{text:1}}`. */
export const SLOT_TOKEN = /\{\{([a-z][a-z0-9_]{0,31}):(\d{1,3})\}\}/g;

/**
 * A number as it appears in running text: digits with optional thousands separators (`,` `.` `'` and
 * no-break/thin spaces) and an optional decimal part, not glued to letters or other digits, so
 * `1,234.56`, `12 345,5` and `50` match while `MP3`, `H2O` and `3rd` stay text.
 */
const NUMBER = /(?<![\p{L}\p{N}_])(?:\d{1,3}(?:[,.'\u00a0\u202f]\d{3})+|\d+)(?:[.,]\d+)?(?![\p{L}\p{N}_])/gu;

export interface Normalised {
  key: string;
  varSlots: VarSlot[];
  changed: boolean;
}

/** The slot tokens of a text in order of appearance. */
export function slotsOf(text: string): VarSlot[] {
  return [...text.matchAll(SLOT_TOKEN)].map((m) => ({ type: m[1]!, index: Number(m[2]) }));
}

/** The multiset of slot tokens, as a sorted list, for comparing a source with its translation. */
export function slotSignature(text: string): string {
  return [...text.matchAll(SLOT_TOKEN)]
    .map((m) => m[0])
    .sort()
    .join('');
}

/**
 * Turns the numbers of a concrete key into `{{number:N}}` slots, numbering them after any number slots
 * the key already has; existing tokens are kept as they are.
 */
export function normaliseKey(concrete: string): Normalised {
  if (!/\d/.test(concrete)) return { key: concrete, varSlots: [], changed: false };
  const existing = slotsOf(concrete);
  let nextNumber = existing
    .filter((s) => s.type === 'number')
    .reduce((max, s) => Math.max(max, s.index + 1), 0);
  let changed = false;
  const parts: string[] = [];
  let last = 0;
  const replaceNumbers = (text: string) =>
    text.replace(NUMBER, () => {
      changed = true;
      return `{{number:${nextNumber++}}}`;
    });
  for (const match of concrete.matchAll(SLOT_TOKEN)) {
    parts.push(replaceNumbers(concrete.slice(last, match.index)), match[0]);
    last = match.index + match[0].length;
  }
  parts.push(replaceNumbers(concrete.slice(last)));
  const key = parts.join('');
  return { key, varSlots: slotsOf(key), changed };
}

/** True when a key has nothing to translate: only slots, digits, punctuation and spaces. */
export function isOnlySlots(key: string): boolean {
  return !/\p{L}/u.test(key.replace(SLOT_TOKEN, ''));
}

export const sameSlots = (a: VarSlot[], b: VarSlot[]) =>
  a.length === b.length &&
  a
    .map((s) => `${s.type}:${s.index}`)
    .sort()
    .join(',') ===
    b
      .map((s) => `${s.type}:${s.index}`)
      .sort()
      .join(',');

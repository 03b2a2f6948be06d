import { normaliseKey } from '@app/slots';

const NUMBER_SLOT = /\{\{number:(\d+)\}\}/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface Pattern {
  /** The key as the server stores it: numbers turned into `{{number:N}}` slots. */
  key: string;
  /** The page's live value for each number slot, by slot index. */
  numbers: Record<string, string>;
}

/** The server's key for a concrete text, with the values its number slots hold on the page. */
export function patternOf(concrete: string): Pattern {
  if (!/\d/.test(concrete)) return { key: concrete, numbers: {} }; // most text: nothing to normalise
  const { key, changed } = normaliseKey(concrete);
  if (!changed) return { key, numbers: {} };
  const indices: string[] = [];
  const source = escape(key).replace(/\\\{\\\{number:(\d+)\\\}\\\}/g, (_m, index: string) => {
    indices.push(index);
    return '(.+?)';
  });
  const match = new RegExp(`^${source}$`, 's').exec(concrete);
  const numbers: Record<string, string> = {};
  indices.forEach((index, position) => (numbers[index] = match?.[position + 1] ?? ''));
  return { key, numbers };
}

/** A translation with its number slots filled back with the page's live values. */
export const fillNumbers = (translation: string, pattern: Pattern) =>
  translation.includes('{{number:')
    ? translation.replace(NUMBER_SLOT, (token, index: string) => pattern.numbers[index] ?? token)
    : translation;

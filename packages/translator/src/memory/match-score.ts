/**
 * How close a stored source text is to the text being translated, as CAT tools show it: 100 for the same
 * text, otherwise 100 × (1 − edit distance ÷ length of the longer text), rounded down, so only an exact
 * match reaches 100. Distances count Unicode code points.
 */
export function matchScore(text: string, stored: string): number {
  if (text === stored) return 100;
  const a = [...text];
  const b = [...stored];
  const longer = Math.max(a.length, b.length);
  return Math.min(99, Math.floor(100 * (1 - editDistance(a, b) / longer)));
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string[], b: string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

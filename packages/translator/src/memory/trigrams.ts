const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The distinct trigrams of a text, as PostgreSQL's pg_trgm counts them: words of letters and digits, in
 * lower case, each padded with two spaces in front and one behind ("cat" → "  c", " ca", "cat", "at ").
 */
export function trigrams(text: string): string[] {
  const found = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    const points = [...`  ${word} `];
    for (let i = 0; i + 3 <= points.length; i++) found.add(points.slice(i, i + 3).join(''));
  }
  return [...found];
}

import { Alert, Text } from '@mantine/core';

type Part = { text: string; change: 'same' | 'removed' | 'added' };

/** The words of `before` and `after` in order, each kept, removed or added (longest common subsequence). */
function wordDiff(before: string, after: string): Part[] {
  const a = before.split(/(\s+)/);
  const b = after.split(/(\s+)/);
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] =
        a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const parts: Part[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ text: a[i]!, change: 'same' });
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      parts.push({ text: a[i++]!, change: 'removed' });
    } else {
      parts.push({ text: b[j++]!, change: 'added' });
    }
  }
  return parts;
}

/**
 * Says that a translation was made for another text that this phrase replaced on its page, and how the
 * text changed: removed words struck through, added ones marked.
 */
export function OutdatedNote({ before, after }: { before: string; after: string }) {
  return (
    <Alert color="yellow" p={6} data-testid="outdated-note" aria-label="Outdated translation">
      <Text size="xs">
        Outdated: made for an earlier text. Save or review it once it fits.{' '}
        {wordDiff(before, after).map((part, index) =>
          part.change === 'same' ? (
            <span key={index}>{part.text}</span>
          ) : part.change === 'removed' ? (
            <del key={index} style={{ marginRight: 4 }}>
              {part.text}
            </del>
          ) : (
            <ins key={index}>{part.text}</ins>
          ),
        )}
      </Text>
    </Alert>
  );
}

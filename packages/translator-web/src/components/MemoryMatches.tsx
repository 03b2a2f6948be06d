import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useMemoryMatches } from '../data/phrases.ts';

/**
 * What the translation memory offers for a phrase (read once its field is first focused): each match
 * with its score and, given `onUse` (one who may translate), a button that puts it in the field. A match
 * equal to the current text is left out.
 */
export function MemoryMatches({
  text,
  lang,
  current,
  active,
  onUse,
}: {
  text: string;
  lang: string;
  current: string;
  active: boolean;
  onUse?: (value: string) => void;
}) {
  const memory = useMemoryMatches(text, lang, active);
  const matches = (memory.data?.matches ?? []).filter((match) => match.value !== current);
  if (!matches.length) return null;
  return (
    <Stack gap={2} data-testid="memory-matches" aria-label={`Translation memory for "${text}"`} role="group">
      {matches.map((match) => (
        <Group key={`${match.source}\u0000${match.value}`} gap={6} wrap="nowrap" data-testid="memory-match">
          <Tooltip label={`Source: ${match.source}${match.shared ? ' (another project)' : ''}`}>
            <Badge size="sm" variant="light" color={match.score === 100 ? 'green' : 'gray'}>
              {match.score}%
            </Badge>
          </Tooltip>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Memory: {match.value}
          </Text>
          {onUse ? (
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => onUse(match.value)}
              aria-label={`Use the ${match.score}% memory match "${match.value}"`}
            >
              Use
            </Button>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}

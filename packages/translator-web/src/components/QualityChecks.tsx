import { Stack, Text } from '@mantine/core';
import type { QualityIssue } from '../api.ts';

/** What each quality check looks for, as a count's label says it. */
export const QUALITY_LABELS: Record<QualityIssue['check'], string> = {
  numbers: 'Numbers differ',
  leading_space: 'Space at the start differs',
  trailing_space: 'Space at the end differs',
  end_punctuation: 'Sentence end differs',
  length: 'Length out of proportion',
  glossary: 'Glossary not followed',
};

/** The quality checks a saved translation fails, under its editor. */
export function QualityNotes({ issues, label }: { issues: QualityIssue[]; label: string }) {
  if (!issues.length) return null;
  return (
    <Stack gap={2} data-testid="quality-checks" role="group" aria-label={`Quality checks of ${label}`}>
      {issues.map((issue) => (
        <Text key={issue.check} size="xs" data-check={issue.check}>
          <span aria-hidden="true">⚠ </span>
          {issue.message}
        </Text>
      ))}
    </Stack>
  );
}

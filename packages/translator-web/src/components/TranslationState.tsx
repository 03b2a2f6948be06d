import { Badge } from '@mantine/core';
import type { TranslationState } from '../api.ts';

const STATES: Record<TranslationState, { label: string; color: string }> = {
  machine: { label: 'Machine', color: 'grape' },
  human: { label: 'Human', color: 'blue' },
  reviewed: { label: 'Reviewed', color: 'green' },
};

/** The options of a state filter (`all` names none). */
export const STATE_FILTER = [
  { value: 'all', label: 'Any state' },
  ...Object.entries(STATES).map(([value, { label }]) => ({ value, label })),
];

/** The translation state a `state` filter names. */
export const translationStateParam = (value: string): TranslationState | undefined =>
  value in STATES ? (value as TranslationState) : undefined;

/** Who the translation comes from, as a chip: an AI job (machine), a person (human), or reviewed. */
export function StateChip({ state }: { state: TranslationState }) {
  const { label, color } = STATES[state];
  return (
    <Badge color={color} variant="light" size="sm" data-testid="translation-state">
      {label}
    </Badge>
  );
}

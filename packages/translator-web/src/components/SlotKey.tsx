import { Badge, Text } from '@mantine/core';
import { Fragment } from 'react';
import type { VarSlot } from '../api.ts';

export const SLOT_PATTERN = /\{\{([a-z][a-z0-9_]{0,31}):(\d{1,3})\}\}/g;

/** The slot tokens of a key, in order of appearance, each once. */
export function slotsOf(key: string): VarSlot[] {
  const seen = new Set<string>();
  const slots: VarSlot[] = [];
  for (const match of key.matchAll(SLOT_PATTERN)) {
    const id = `${match[1]}:${match[2]}`;
    if (seen.has(id)) continue;
    seen.add(id);
    slots.push({ type: match[1]!, index: Number(match[2]) });
  }
  return slots;
}

export const slotToken = (slot: VarSlot) => `{{${slot.type}:${slot.index}}}`;

/** The words a text slot held on the page, when known. */
const textOf = (slot: VarSlot, words: string[]) =>
  (slot.type === 'text' ? words[slot.index] : undefined) || undefined;

/**
 * A key with its `{{type:N}}` slots shown as chips (a screen reader hears the token). A `{{text:N}}` chip
 * shows the words the page had there when `words` (the row's slotTexts) knows them.
 */
export function SlotKey({
  text,
  lineClamp,
  words = [],
}: {
  text: string;
  lineClamp?: number;
  words?: string[];
}) {
  const parts: (string | VarSlot)[] = [];
  let last = 0;
  for (const match of text.matchAll(SLOT_PATTERN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ type: match[1]!, index: Number(match[2]) });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <Text size="sm" lineClamp={lineClamp} style={{ wordBreak: 'break-word' }}>
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          <Fragment key={i}>{part}</Fragment>
        ) : (
          <Badge
            key={i}
            size="sm"
            radius="sm"
            variant="light"
            color={part.type === 'number' ? 'teal' : 'grape'}
            mx={2}
            tt="none"
            title={slotToken(part)}
            aria-label={textOf(part, words) ? `${slotToken(part)} ${textOf(part, words)}` : slotToken(part)}
            data-slot={slotToken(part)}
          >
            {textOf(part, words) ?? `${part.type}:${part.index}`}
          </Badge>
        ),
      )}
    </Text>
  );
}

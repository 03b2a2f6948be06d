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

/** A key with its `{{type:N}}` slots shown as chips (the text a screen reader hears stays the token). */
export function SlotKey({ text, lineClamp }: { text: string; lineClamp?: number }) {
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
            aria-label={slotToken(part)}
            data-slot={slotToken(part)}
          >
            {part.type}:{part.index}
          </Badge>
        ),
      )}
    </Text>
  );
}

import { describe, expect, it } from 'vitest';
import { isOnlySlots, normaliseKey, slotSignature } from '../src/index.ts';

describe('normaliseKey', () => {
  it.each([
    ['You have 3 items', 'You have {{number:0}} items'],
    ['Total: 1,234.56 €', 'Total: {{number:0}} €'],
    ['Page 2 of 10', 'Page {{number:0}} of {{number:1}}'],
    ['12\u00a0345,50 Kč', '{{number:0}} Kč'],
    ['50% off', '{{number:0}}% off'],
    ['MP3 and H2O on the 3rd', 'MP3 and H2O on the 3rd'],
    ['Email{{text:0}} for 2 people', 'Email{{text:0}} for {{number:0}} people'],
    ['{{number:0}} and 5 more', '{{number:0}} and {{number:1}} more'],
  ])('%s → %s', (concrete, pattern) => {
    expect(normaliseKey(concrete).key).toBe(pattern);
  });

  it('lists the slots and whether the key changed', () => {
    expect(normaliseKey('Email{{text:0}} in 5 days')).toEqual({
      key: 'Email{{text:0}} in {{number:0}} days',
      varSlots: [
        { type: 'text', index: 0 },
        { type: 'number', index: 0 },
      ],
      changed: true,
    });
    expect(normaliseKey('Hello').changed).toBe(false);
  });

  it('recognises keys with nothing to translate and compares slot sets', () => {
    expect(isOnlySlots('{{number:0}} / {{number:1}}')).toBe(true);
    expect(isOnlySlots('2024')).toBe(true);
    expect(isOnlySlots('{{number:0}} items')).toBe(false);
    expect(slotSignature('a {{number:0}} b {{text:0}}')).toBe(slotSignature('{{text:0}} x {{number:0}}'));
    expect(slotSignature('a {{number:0}}')).not.toBe(slotSignature('a {{number:1}}'));
  });
});

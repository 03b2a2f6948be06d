import { describe, expect, it } from 'vitest';
import { parseControl } from './terminal-protocol.ts';

describe('parseControl', () => {
  it('reads a resize and a ping', () => {
    expect(parseControl('{"type":"resize","cols":120,"rows":40}')).toEqual({
      type: 'resize',
      size: { cols: 120, rows: 40 },
    });
    expect(parseControl('{"type":"ping"}')).toEqual({ type: 'ping' });
  });

  it('ignores anything else: bad JSON, unknown types, sizes out of range or not whole', () => {
    for (const text of [
      'not json',
      'null',
      '{"type":"exit"}',
      '{"type":"resize","cols":0,"rows":40}',
      '{"type":"resize","cols":80,"rows":1001}',
      '{"type":"resize","cols":80.5,"rows":24}',
      '{"type":"resize","cols":"80","rows":24}',
    ])
      expect(parseControl(text), text).toBeUndefined();
  });
});

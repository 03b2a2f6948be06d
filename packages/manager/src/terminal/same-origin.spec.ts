import { describe, expect, it } from 'vitest';
import { isSameOrigin } from './same-origin.ts';

const PUBLIC = 'https://fleet.example.com';

describe('isSameOrigin', () => {
  it('admits the public URL and the host the request was sent to', () => {
    expect(isSameOrigin('https://fleet.example.com', 'internal:3000', PUBLIC)).toBe(true);
    expect(isSameOrigin('http://127.0.0.1:3000', '127.0.0.1:3000', PUBLIC)).toBe(true);
  });

  it('refuses other sites, other ports and schemes, no Origin, and the opaque "null"', () => {
    expect(isSameOrigin('https://evil.example', 'fleet.example.com', PUBLIC)).toBe(false);
    expect(isSameOrigin('http://fleet.example.com', 'internal:3000', PUBLIC)).toBe(false);
    expect(isSameOrigin('https://fleet.example.com:8443', 'internal:3000', PUBLIC)).toBe(false);
    expect(isSameOrigin(undefined, 'fleet.example.com', PUBLIC)).toBe(false);
    expect(isSameOrigin('null', 'fleet.example.com', PUBLIC)).toBe(false);
    expect(isSameOrigin('file://fleet.example.com', 'fleet.example.com', PUBLIC)).toBe(false);
  });
});

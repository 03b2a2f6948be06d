import { describe, expect, it } from 'vitest';
import { EDIT_TOKEN_TTL_MS, EditTokens } from './edit-tokens.ts';

describe('edit tokens', () => {
  const tokens = new EditTokens('secret');

  it('carries the project, the account and the page origin until it expires', () => {
    const { token } = tokens.issue(3, 42, 'https://shop.example', 1_000);
    expect(tokens.verify(token, 2_000)).toEqual({
      projectId: 3,
      accountId: 42,
      origin: 'https://shop.example',
      expiresAt: 1_000 + EDIT_TOKEN_TTL_MS,
    });
    expect(tokens.verify(token, 1_000 + EDIT_TOKEN_TTL_MS)).toBeUndefined();
  });

  it('refuses a token altered, signed under another secret, or not a token at all', () => {
    const { token } = tokens.issue(3, 42, 'https://shop.example');
    expect(tokens.verify(token.replace('tet_3.', 'tet_4.'))).toBeUndefined();
    const [head, origin, signature] = [
      token.split('.').slice(0, 3),
      token.split('.')[3],
      token.split('.')[4],
    ];
    const elsewhere = Buffer.from('https://evil.example').toString('base64url');
    expect(origin).not.toBe(elsewhere);
    expect(tokens.verify([...head, elsewhere, signature].join('.'))).toBeUndefined();
    expect(new EditTokens('other secret').verify(token)).toBeUndefined();
    expect(tokens.verify('tet_3.42.99999999999999.x')).toBeUndefined();
    expect(tokens.verify('')).toBeUndefined();
  });
});

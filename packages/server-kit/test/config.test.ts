import { describe, expect, it } from 'vitest';
import { ConfigError, envReader, readCommonConfig } from '../src/index.ts';

describe('configuration from the environment', () => {
  it('reads defaults and typed values', () => {
    const config = readCommonConfig(
      envReader({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16', RATE_LIMIT_FAILURES: '7' }),
    );
    expect(config).toMatchObject({
      host: '0.0.0.0',
      production: false,
      dataDir: './data',
      trustProxy: ['10.0.0.1', '192.168.0.0/16'],
      rateLimit: { failures: 7, windowSeconds: 60, blockSeconds: 300 },
    });
  });

  it.each([
    ['RATE_LIMIT_FAILURES', 'many'],
    ['RATE_LIMIT_WINDOW_S', '0'],
    ['TRUST_PROXY', 'my-proxy'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['LOG_LEVEL', 'loud'],
  ])('stops with a message naming %s when it is %s', (variable, value) => {
    const read = () => readCommonConfig(envReader({ [variable]: value }));
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(new RegExp(`^${variable}: `));
  });

  it('treats blank values as unset and validates URLs and booleans', () => {
    const env = envReader({ A: '  ', U: 'ftp://x', B: 'maybe', C: 'yes' });
    expect(env.int('A', 5)).toBe(5);
    expect(() => env.url('U')).toThrow(/^U: expected a URL starting with http: or https:/);
    expect(() => env.bool('B', false)).toThrow(/^B: /);
    expect(env.bool('C', false)).toBe(true);
  });
});

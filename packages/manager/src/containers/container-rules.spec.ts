import { describe, expect, it } from 'vitest';
import { checkHostname, imageOf, mergeEnvironment, sameEnvironment } from './container-rules.ts';

describe('container rules', () => {
  it('takes a hostname as one DNS label, trimmed and in lower case', () => {
    expect(checkHostname('  Web-1 ')).toBe('web-1');
    for (const bad of ['web_1', '-web', 'web.example', 'a'.repeat(64), ''])
      expect(() => checkHostname(bad)).toThrow(
        expect.objectContaining({ statusCode: 422, fields: { hostname: expect.any(String) } }),
      );
  });

  it('runs the template, or the custom image when the template is custom', () => {
    expect(imageOf(' nginx:latest ', undefined)).toBe('nginx:latest');
    expect(imageOf('custom', ' registry.example/app:2 ')).toBe('registry.example/app:2');
    expect(() => imageOf('custom', '  ')).toThrow(
      expect.objectContaining({
        statusCode: 400,
        fields: { customTemplate: 'is required when template is custom' },
      }),
    );
    expect(() => imageOf(' ', undefined)).toThrow(
      expect.objectContaining({ fields: { template: 'must not be blank' } }),
    );
  });

  it('merges the environment: the caller wins over the site defaults, blank rows are ignored', () => {
    const merged = mergeEnvironment(
      [
        { key: 'TZ', value: 'UTC' },
        { key: 'LANG', value: 'C' },
      ],
      [
        { key: ' TZ ', value: 'Europe/Berlin' },
        { key: '', value: 'ignored' },
      ],
    );
    expect(merged).toEqual({ TZ: 'Europe/Berlin', LANG: 'C' });
  });

  it('names every environment key that is not a variable name (422)', () => {
    expect(() =>
      mergeEnvironment(
        [],
        [
          { key: 'OK', value: '1' },
          { key: '1BAD', value: '2' },
          { key: 'ALSO-BAD', value: '3' },
        ],
      ),
    ).toThrow(
      expect.objectContaining({
        statusCode: 422,
        fields: {
          'environmentVars.1.key': 'must be a variable name',
          'environmentVars.2.key': 'must be a variable name',
        },
      }),
    );
  });

  it('compares environments by their pairs, not their order', () => {
    expect(sameEnvironment({ A: '1', B: '2' }, { B: '2', A: '1' })).toBe(true);
    expect(sameEnvironment({ A: '1' }, { A: '1', B: '2' })).toBe(false);
    expect(sameEnvironment({ A: '1' }, { A: '2' })).toBe(false);
  });
});

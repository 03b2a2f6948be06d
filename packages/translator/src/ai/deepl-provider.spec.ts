import { describe, expect, it } from 'vitest';
import { deeplTarget, fromDeepLXml, toDeepLXml } from './deepl-provider.ts';

describe('DeepL mapping', () => {
  it('sends slots as tags DeepL leaves alone, escapes the rest, and reads both tag forms back', () => {
    const text = 'Tom & Jerry <b> have {{number:0}} items in {{text:1}}';
    const xml = toDeepLXml(text);
    expect(xml).toBe('Tom &amp; Jerry &lt;b&gt; have <x id="number-0"/> items in <x id="text-1"/>');
    expect(fromDeepLXml(xml)).toBe(text);
    expect(fromDeepLXml('<x id="text-1"></x> puis <x id="number-0" />')).toBe('{{text:1}} puis {{number:0}}');
    expect(fromDeepLXml('&quot;a&quot; &apos;b&apos; &amp;lt;')).toBe(`"a" 'b' &lt;`);
    expect(fromDeepLXml(toDeepLXml('one\r\ntwo'))).toBe('one\r\ntwo');
  });

  it('names target languages as DeepL does', () => {
    expect(['fr', 'de', 'en', 'en-GB', 'pt', 'pt-BR', 'zh', 'zh-Hant'].map(deeplTarget)).toEqual([
      'FR',
      'DE',
      'EN-US',
      'EN-GB',
      'PT-PT',
      'PT-BR',
      'ZH-HANS',
      'ZH-HANT',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { CODECS } from './codecs.ts';
import { FILE_FORMATS, FileError, type FileUnit } from './exchange.ts';

const header = { project: 'Bakery "Le Pain" & Co', sourceLang: 'en', lang: 'fr' };

/** Texts that break naive writers: markup characters, breaks, edge spaces, controls, formulas. */
const units: FileUnit[] = [
  { id: 1, key: 'Fresh bread', context: '', value: 'Pain frais', state: 'reviewed' },
  {
    id: 2,
    key: 'You have {{number:0}} items',
    context: 'cart',
    value: 'Vous avez {{number:0}} articles',
    state: 'human',
  },
  {
    id: 3,
    key: 'Tom & Jerry <b>"quoted"</b> \'single\'',
    context: 'main > p',
    value: 'Tom & Jerry <b>« cité »</b>',
    state: 'human',
  },
  {
    id: 4,
    key: 'Line one\nLine two\r\nand a\ttab',
    context: '',
    value: 'Ligne un\nLigne deux\r\net une\ttab',
    state: 'human',
  },
  { id: 5, key: '  edge spaces  ', context: '', value: '  espaces  ', state: 'human' },
  {
    id: 6,
    key: 'with {{text:0}} inside, then {{number:1}}',
    context: 'x',
    value: '{{number:1}} puis {{text:0}}',
    state: 'human',
  },
  { id: 7, key: 'Bell \u0007 and emoji 🥖', context: '', value: 'Cloche \u0007 et emoji 🥖', state: 'human' },
  { id: 8, key: '=SUM(A1:A3)', context: '', value: "'=not a formula", state: 'human' },
  { id: 9, key: '-20% today', context: '', value: '-20 % aujourd’hui', state: 'human' },
  { id: 10, key: '__proto__', context: '__proto__', value: 'prototype', state: 'human' },
  { id: 11, key: 'Machine made', context: '', value: 'Fait par machine', state: 'machine' },
  { id: 12, key: 'Not translated yet', context: '', value: null, state: null },
  {
    id: 13,
    key: 'Back\\slash and "quotes"',
    context: 'a "context"\nwith a break',
    value: 'Barre\\oblique',
    state: 'human',
  },
];

describe.each(FILE_FORMATS)('%s', (format) => {
  const codec = CODECS[format];

  it('reads back what it writes: every source, context and translation', () => {
    const read = codec.read(codec.write(header, units));
    // Nested JSON groups by context: compared by source and context, not by position.
    const byName = new Map(read.units.map((unit) => [`${unit.context}\u0000${unit.key}`, unit.value]));
    expect(read.units).toHaveLength(units.length);
    for (const unit of units) expect(byName.get(`${unit.context}\u0000${unit.key}`)).toBe(unit.value ?? '');
    const unfinished = read.units.filter((unit) => unit.unfinished).map((unit) => unit.key);
    // PO marks machine translations fuzzy; XLIFF marks untranslated units unfinished.
    const expected = {
      po: ['Machine made'],
      xliff12: ['Not translated yet'],
      xliff20: ['Not translated yet'],
    };
    expect(unfinished).toEqual(expected[format as keyof typeof expected] ?? []);
  });

  it('refuses text that is not this format with a reason', () => {
    expect(() => codec.read('<<<"not, a\n"file')).toThrow(FileError);
  });
});

describe('XLIFF', () => {
  it('writes slots as placeholders a CAT tool protects, and states as XLIFF names them', () => {
    const v12 = CODECS.xliff12.write(header, units);
    expect(v12).toContain('<x id="number-0" equiv-text="{{number:0}}"/>');
    expect(v12).toContain('<target state="final">Pain frais</target>');
    expect(v12).toContain('state-qualifier="leveraged-mt"');
    expect(v12).toContain('<x id="cp-0" ctype="x-cp-0007"/>');
    const v20 = CODECS.xliff20.write(header, units);
    expect(v20).toContain('<ph id="number-0" equiv="{{number:0}}" disp="{{number:0}}"/>');
    expect(v20).toContain('<segment state="reviewed">');
    expect(v20).toContain('<cp hex="0007"/>');
  });

  it('reads what CAT tools add: groups, several segments, marks and paired codes around text', () => {
    const file = `<?xml version="1.0"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">
  <file id="f"><group id="g"><unit id="u1">
    <segment state="translated"><source>Hello. </source><target>Bonjour. </target></segment>
    <segment state="final"><source>You have <ph id="number-0"/> items</source><target>Vous avez <ph id="number-0"/> <mrk id="m" type="term">articles</mrk></target></segment>
  </unit></group></file>
</xliff>`;
    expect(CODECS.xliff20.read(file)).toEqual({
      lang: 'fr',
      units: [
        {
          key: 'Hello. You have {{number:0}} items',
          context: '',
          value: 'Bonjour. Vous avez {{number:0}} articles',
          unfinished: false,
        },
      ],
    });
  });

  it('refuses a DOCTYPE (no entity expansion), a placeholder it did not write and the other version', () => {
    const doctype = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file><body/></file></xliff>`;
    expect(() => CODECS.xliff12.read(doctype)).toThrow(/DOCTYPE/);
    const foreign = CODECS.xliff12
      .write(header, units.slice(1, 2))
      .replace('<x id="number-0" equiv-text="{{number:0}}"/>', '<x id="1"/>');
    expect(() => CODECS.xliff12.read(foreign)).toThrow(/<x id="1"> is not a placeholder/);
    expect(() => CODECS.xliff20.read(CODECS.xliff12.write(header, units))).toThrow(/not an XLIFF 2.0 file/);
  });
});

describe('PO', () => {
  it('reads multi-line strings, flags, escapes and skips obsolete entries', () => {
    const file = `msgid ""
msgstr ""
"Language: fr_FR\\n"

#, fuzzy, c-format
msgid "Guess"
msgstr "Devine"

msgctxt "nav"
msgid ""
"Two\\n"
"lines"
msgstr "Deux\\nlignes \\x41\\101"

#~ msgid "Gone"
#~ msgstr "Parti"
`;
    expect(CODECS.po.read(file)).toEqual({
      lang: 'fr_FR',
      units: [
        { key: 'Guess', context: '', value: 'Devine', unfinished: true },
        { key: 'Two\nlines', context: 'nav', value: 'Deux\nlignes AA', unfinished: false },
      ],
    });
  });

  it('refuses plural entries and broken syntax with the line', () => {
    expect(() => CODECS.po.read('msgid "a"\nmsgid_plural "b"\nmsgstr[0] "c"\n')).toThrow(/plural/);
    expect(() => CODECS.po.read('msgid "a"\nmsgstr "b\n')).toThrow(/line 2/);
  });
});

describe('CSV', () => {
  it('keeps formulas from running in a spreadsheet and reads columns in any order', () => {
    const written = CODECS.csv.write(header, units.slice(7, 9));
    expect(written).toContain(`,'=SUM(A1:A3),''=not a formula,`);
    expect(written).toContain(`,'-20% today,`);
    expect(CODECS.csv.read('target,source\r\n"Oui, ""chef""",Yes chef\r\n').units).toEqual([
      { key: 'Yes chef', context: '', value: 'Oui, "chef"', unfinished: false },
    ]);
  });

  it('refuses a file without source and target columns, or with ragged rows', () => {
    expect(() => CODECS.csv.read('a,b\r\n1,2\r\n')).toThrow(/"source" is missing/);
    expect(() => CODECS.csv.read('source,target\r\n1,2,3\r\n')).toThrow(/line 2: 3 fields/);
  });
});

describe('JSON', () => {
  it('flat files mark a context with gettext’s EOT; nested files group by context', () => {
    const flat = JSON.parse(CODECS.json.write(header, units.slice(0, 2))) as Record<string, string>;
    expect(flat).toEqual({
      'Fresh bread': 'Pain frais',
      'cart\u0004You have {{number:0}} items': 'Vous avez {{number:0}} articles',
    });
    const nested = JSON.parse(CODECS['json-nested'].write(header, units.slice(0, 2))) as object;
    expect(nested).toEqual({
      '': { 'Fresh bread': 'Pain frais' },
      cart: { 'You have {{number:0}} items': 'Vous avez {{number:0}} articles' },
    });
  });

  it('refuses values that are not strings', () => {
    expect(() => CODECS.json.read('{"a": 1}')).toThrow(/must be a string/);
    expect(() => CODECS['json-nested'].read('{"a": "b"}')).toThrow(/must be an object/);
  });
});

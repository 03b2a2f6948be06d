import type { TranslationState } from '../db/schema.ts';
import { FileError, type Codec, type FileHeader, type FileUnit, type ReadUnit } from './exchange.ts';
import { inlineText, inlineXml, type XliffVersion } from './xliff-inline.ts';
import { elements, escapeXml, firstElement, parseXml, type XmlElement } from './xml.ts';

const NAMESPACE: Record<XliffVersion, string> = {
  '1.2': 'urn:oasis:names:tc:xliff:document:1.2',
  '2.0': 'urn:oasis:names:tc:xliff:document:2.0',
};

/** Our states as XLIFF 1.2 target attributes: a machine translation is `translated` with an MT qualifier. */
const STATE_12: Record<TranslationState, string> = {
  machine: 'state="translated" state-qualifier="leveraged-mt"',
  human: 'state="translated"',
  reviewed: 'state="final"',
};
const STATE_20: Record<TranslationState, string> = {
  machine: 'translated',
  human: 'translated',
  reviewed: 'reviewed',
};
/** States that say the target is not done: an import leaves those alone. */
const UNFINISHED_12 = /^(new|needs-.*)$/;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

function write12(header: FileHeader, units: FileUnit[]): string {
  const body = units.map((unit) => {
    const context = unit.context
      ? `\n        <context-group purpose="location"><context context-type="x-dom">${escapeXml(unit.context)}</context></context-group>`
      : '';
    const target =
      unit.value === null
        ? '<target state="needs-translation"/>'
        : `<target ${STATE_12[unit.state ?? 'human']}>${inlineXml(unit.value, '1.2')}</target>`;
    return `      <trans-unit id="${unit.id}" xml:space="preserve">
        <source>${inlineXml(unit.key, '1.2')}</source>
        ${target}${context}
      </trans-unit>`;
  });
  return `${XML_DECLARATION}<xliff version="1.2" xmlns="${NAMESPACE['1.2']}">
  <file original="${escapeXml(header.project, true)}" datatype="plaintext" source-language="${escapeXml(header.sourceLang, true)}" target-language="${escapeXml(header.lang, true)}">
    <body>
${body.join('\n')}
    </body>
  </file>
</xliff>
`;
}

function write20(header: FileHeader, units: FileUnit[]): string {
  const body = units.map((unit) => {
    const notes = unit.context
      ? `\n      <notes><note category="context">${escapeXml(unit.context)}</note></notes>`
      : '';
    const target =
      unit.value === null
        ? ''
        : `\n        <target xml:space="preserve">${inlineXml(unit.value, '2.0')}</target>`;
    const state = unit.value === null ? 'initial' : STATE_20[unit.state ?? 'human'];
    return `    <unit id="u${unit.id}">${notes}
      <segment state="${state}">
        <source xml:space="preserve">${inlineXml(unit.key, '2.0')}</source>${target}
      </segment>
    </unit>`;
  });
  return `${XML_DECLARATION}<xliff version="2.0" xmlns="${NAMESPACE['2.0']}" srcLang="${escapeXml(header.sourceLang, true)}" trgLang="${escapeXml(header.lang, true)}">
  <file id="f1" original="${escapeXml(header.project, true)}">
${body.join('\n')}
  </file>
</xliff>
`;
}

/** The root, checked to be XLIFF of this version. */
function xliffRoot(text: string, version: XliffVersion): XmlElement {
  const root = parseXml(text);
  if (root.name !== 'xliff' || root.namespace !== NAMESPACE[version]) {
    throw new FileError(
      `not an XLIFF ${version} file: its root is not <xliff xmlns="${NAMESPACE[version]}">`,
    );
  }
  return root;
}

/** Units of 1.2, inside `<body>` and any `<group>`s. */
function transUnits(parent: XmlElement): XmlElement[] {
  return elements(parent).flatMap((child) =>
    child.name === 'trans-unit'
      ? [child]
      : child.name === 'group' || child.name === 'body'
        ? transUnits(child)
        : [],
  );
}

function read12(text: string) {
  const root = xliffRoot(text, '1.2');
  const files = elements(root, 'file');
  const units = files.flatMap(transUnits).map((unit): ReadUnit => {
    const source = firstElement(unit, 'source');
    if (!source) throw new FileError(`line ${unit.line}: <trans-unit> without <source>`);
    const target = firstElement(unit, 'target');
    const context = elements(unit, 'context-group')
      .flatMap((group) => elements(group, 'context'))
      .find((element) => element.attributes['context-type'] === 'x-dom');
    return {
      key: inlineText(source, '1.2'),
      context: context ? inlineText(context, '1.2') : '',
      value: target ? inlineText(target, '1.2') : '',
      unfinished: UNFINISHED_12.test(target?.attributes.state ?? ''),
    };
  });
  return { lang: files[0]?.attributes['target-language'], units };
}

/** Units of 2.0, inside `<file>` and any `<group>`s; a unit's segments are joined. */
function units20(parent: XmlElement): XmlElement[] {
  return elements(parent).flatMap((child) =>
    child.name === 'unit' ? [child] : child.name === 'group' ? units20(child) : [],
  );
}

function read20(text: string) {
  const root = xliffRoot(text, '2.0');
  const units = elements(root, 'file')
    .flatMap(units20)
    .map((unit): ReadUnit => {
      const parts = elements(unit).filter((child) => child.name === 'segment' || child.name === 'ignorable');
      if (!parts.length) throw new FileError(`line ${unit.line}: <unit> without <segment>`);
      const joined = (name: 'source' | 'target') =>
        parts.map((part) => {
          const element = firstElement(part, name);
          return element ? inlineText(element, '2.0') : '';
        });
      const context = elements(unit, 'notes')
        .flatMap((notes) => elements(notes, 'note'))
        .find((note) => note.attributes.category === 'context');
      return {
        key: joined('source').join(''),
        context: context ? inlineText(context, '2.0') : '',
        value: joined('target').join(''),
        unfinished: parts.some((part) => part.name === 'segment' && part.attributes.state === 'initial'),
      };
    });
  return { lang: root.attributes.trgLang, units };
}

export const xliff12: Codec = {
  extension: 'xlf',
  contentType: 'application/xliff+xml',
  write: write12,
  read: read12,
};

export const xliff20: Codec = {
  extension: 'xlf',
  contentType: 'application/xliff+xml',
  write: write20,
  read: read20,
};

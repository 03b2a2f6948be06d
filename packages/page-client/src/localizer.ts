import type { Translation } from './api.ts';
import { fillNumbers, patternOf } from './patterns.ts';
import { parentOf, type Scanner, type Unit } from './scanner.ts';
import { collapse, edges } from './text-rules.ts';

const TEXT_SLOT = /\{\{text:\d+\}\}/g;
export const MARK = 'data-loco-translated';

/** Translations by phrase, as the Localizer looks them up. */
export const translationMap = (entries: Translation[]) =>
  new Map(entries.map((t) => [`${t.key}\u0000${t.context}`, t.value] as const));

export interface Phrase {
  key: string;
  context: string;
  element: Element;
}

/**
 * Holds what the page showed before we translated it and writes translations in place: only
 * `nodeValue` and attribute values change, nodes are never moved, added or removed, so frameworks
 * that own the DOM (React, Vue) keep working. What we wrote is remembered, so our own writes are told
 * apart from the page's changes.
 */
export class Localizer {
  private readonly originals = new WeakMap<Node, string>();
  private readonly written = new WeakMap<Node, string>();
  private readonly attrOriginals = new WeakMap<Element, Record<string, string>>();
  private readonly attrWritten = new WeakMap<Element, Record<string, string>>();
  /** Every unit seen, by its text node, its sentence element or its attribute node. */
  private readonly units = new Map<Node, Unit>();
  translations = new Map<string, string>();
  language: string | null = null;

  constructor(
    private readonly scanner: Scanner,
    private readonly register: (key: string, context: string, slots?: string[]) => void,
  ) {}

  /** The text the page itself put in a node (ours undone). */
  private source(node: Text): string {
    const value = node.nodeValue ?? '';
    return this.written.get(node) === value ? (this.originals.get(node) ?? value) : value;
  }

  private attrSource(element: Element, name: string): string {
    const value = element.getAttribute(name) ?? '';
    return this.attrWritten.get(element)?.[name] === value
      ? (this.attrOriginals.get(element)?.[name] ?? value)
      : value;
  }

  /** True when the node's current value is one we wrote (a mutation we caused). */
  isOurs(node: Node, attribute?: string): boolean {
    if (attribute)
      return this.attrWritten.get(node as Element)?.[attribute] === (node as Element).getAttribute(attribute);
    return this.written.has(node) && this.written.get(node) === node.nodeValue;
  }

  /** Finds the units under `root`, registers their phrases and applies the current language. */
  process(root: Node) {
    for (const unit of this.scanner.scan(root, (node) => this.source(node))) {
      const anchor =
        unit.kind === 'text'
          ? unit.node
          : unit.kind === 'attr'
            ? unit.element.getAttributeNode(unit.name)!
            : unit.element;
      this.units.set(anchor, unit);
      this.apply(unit);
    }
  }

  /** Re-applies every known unit (after a language change). */
  applyAll() {
    for (const [anchor, unit] of this.units) {
      if (!unit.element.isConnected || (anchor.nodeType === 3 && !anchor.isConnected))
        this.units.delete(anchor);
      else this.apply(unit);
    }
  }

  /** The phrase shown at `node` (the nearest element up from it with text of its own), if any. */
  phraseAt(node: Node): (Phrase & { translation: string | undefined }) | undefined {
    for (
      let element = node.nodeType === 1 ? (node as Element) : parentOf(node);
      element;
      element = parentOf(element)
    ) {
      for (const unit of this.units.values()) {
        if (unit.element !== element || unit.kind === 'attr') continue;
        const context = this.scanner.contextOf(element);
        const key = patternOf(this.concrete(unit)).key;
        return { key, context, element, translation: this.lookup(key, context) };
      }
    }
    return undefined;
  }

  /** A translation saved on this page (in-page editing): shown at once, without reloading them all. */
  setTranslation(key: string, context: string, value: string) {
    this.translations.set(`${key}\u0000${context}`, value);
    this.applyAll();
  }

  phrases(): Phrase[] {
    const result: Phrase[] = [];
    for (const unit of this.units.values()) {
      if (!unit.element.isConnected) continue;
      const concrete = this.concrete(unit);
      result.push({
        key: patternOf(concrete).key,
        context: this.scanner.contextOf(unit.element),
        element: unit.element,
      });
    }
    return result;
  }

  private concrete(unit: Unit): string {
    if (unit.kind === 'text') return collapse(this.source(unit.node));
    if (unit.kind === 'attr') return collapse(this.attrSource(unit.element, unit.name));
    return collapse(
      unit.groups
        .map(
          (group, index) =>
            (index ? `{{text:${index - 1}}}` : '') + group.map((node) => this.source(node)).join(''),
        )
        .join(''),
    );
  }

  /** The page's own text inside an element (ours undone). */
  private innerSource(element: Element): string {
    let text = '';
    for (const child of element.childNodes) {
      if (child.nodeType === 3) text += this.source(child as Text);
      else if (child.nodeType === 1) text += this.innerSource(child as Element);
    }
    return collapse(text);
  }

  private lookup(key: string, context: string): string | undefined {
    return (
      this.translations.get(`${key}\u0000${context}`) ??
      (context ? this.translations.get(`${key}\u0000`) : undefined)
    );
  }

  private apply(unit: Unit) {
    if (unit.kind === 'attr' && !unit.element.hasAttribute(unit.name)) return;
    const concrete = this.concrete(unit);
    const context = this.scanner.contextOf(unit.element);
    // A sentence's `{{text:N}}` slots go with the words inside them, for the reviewers.
    this.register(
      concrete,
      context,
      unit.kind === 'block' ? unit.inline.map((element) => this.innerSource(element)) : undefined,
    );
    const pattern = patternOf(concrete);
    const translation = this.language ? this.lookup(pattern.key, context) : undefined;
    const value = translation === undefined ? undefined : fillNumbers(translation, pattern);
    if (unit.kind === 'text') this.writeText(unit.node, value);
    else if (unit.kind === 'attr') this.writeAttr(unit.element, unit.name, value);
    else this.writeBlock(unit, value);
    if (value === undefined) unit.element.removeAttribute(MARK);
    else if (unit.element.getAttribute(MARK) !== this.language)
      unit.element.setAttribute(MARK, this.language!);
  }

  /** Writes `value` framed by the original white space, or puts the original back when undefined. */
  private writeText(node: Text, value: string | undefined, source = this.source(node)) {
    const [before, after] = edges(source);
    this.writeValue(node, value === undefined ? source : before + value + after, source);
  }

  private writeValue(node: Text, next: string, source: string) {
    if (node.nodeValue === next) return;
    this.originals.set(node, source);
    this.written.set(node, next);
    node.nodeValue = next;
  }

  private writeAttr(element: Element, name: string, value: string | undefined) {
    const source = this.attrSource(element, name);
    const next = value ?? source;
    if (element.getAttribute(name) === next) return;
    const originals = this.attrOriginals.get(element) ?? {};
    const written = this.attrWritten.get(element) ?? {};
    originals[name] = source;
    written[name] = next;
    this.attrOriginals.set(element, originals);
    this.attrWritten.set(element, written);
    element.setAttribute(name, next);
  }

  /**
   * A sentence with inline elements: the inline elements stay where they are with their live content;
   * the translated text between the slots goes into the text nodes between them, in order. A segment
   * whose gap has no text node joins the nearest gap that has one, so no node is ever created.
   */
  private writeBlock(unit: Extract<Unit, { kind: 'block' }>, value: string | undefined) {
    const { groups } = unit;
    const sources = groups.map((group) => group.map((node) => this.source(node)));
    if (value === undefined) {
      groups.forEach((group, g) =>
        group.forEach((node, n) => this.writeText(node, undefined, sources[g]![n])),
      );
      return;
    }
    const holders = groups.flatMap((group, g) => (group.length ? [g] : []));
    const nearest = (gap: number) =>
      holders.reduce((best, h) => (Math.abs(h - gap) < Math.abs(best - gap) ? h : best));
    const texts = groups.map(() => '');
    value.split(TEXT_SLOT).forEach((segment, gap) => (texts[nearest(gap)] += segment));
    // The gap keeps its outer white space: the first node takes the text, the last the trailing space.
    groups.forEach((group, g) => {
      const [before, after] = edges(sources[g]!.join(''));
      group.forEach((node, n) => {
        const last = n === group.length - 1;
        const next = (n === 0 ? before + texts[g]!.trim() : '') + (last ? after : '');
        this.writeValue(node, next, sources[g]![n]!);
      });
    });
  }
}

import { hasLetters, looksPersonal, SKIPPED_TAGS, translatedAttributesOf } from './text-rules.ts';

export interface CrawlerConfig {
  blockedTags: string[];
  inlineTags: string[];
  domContextSelectors: string[];
  contextDepth: number;
  domContextEnabled: boolean;
}

/**
 * One translatable place on the page: a text node, an attribute, or a sentence whose inline elements
 * (`<strong>`, `<a>` …) are `{{text:N}}` slots — its text nodes are grouped by the gaps between them.
 */
export type Unit =
  | { kind: 'text'; element: Element; node: Text }
  | { kind: 'attr'; element: Element; name: string }
  | { kind: 'block'; element: Element; groups: Text[][]; inline: Element[] };

export const isTranslatable = (text: string) => hasLetters(text) && !looksPersonal(text);

/** The element a node hangs from: its parent, or the host of the shadow root it sits in. */
export function parentOf(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const parent = node.parentNode as (Node & { host?: Element }) | null;
  return parent?.nodeType === 11 ? (parent.host ?? null) : null;
}

/**
 * Finds the units of a subtree under the project's crawler configuration, web components' open shadow
 * roots included (each one found is handed to `shadowRoot`, so the client can follow it too).
 */
export class Scanner {
  private readonly blocked: Set<string>;
  private readonly inline: Set<string>;

  constructor(
    readonly config: CrawlerConfig,
    private readonly shadowRoot: (root: ShadowRoot) => void = () => undefined,
  ) {
    this.blocked = new Set(config.blockedTags.map((tag) => tag.toUpperCase()));
    this.inline = new Set(config.inlineTags.map((tag) => tag.toUpperCase()));
  }

  skipped(element: Element): boolean {
    const tag = element.tagName.toUpperCase();
    return (
      SKIPPED_TAGS.has(tag) ||
      this.blocked.has(tag) ||
      element.getAttribute('data-loco-ignore') === 'true' ||
      element.getAttribute('translate') === 'no'
    );
  }

  /** True when the element or one of its ancestors is skipped. */
  insideSkipped(node: Node): boolean {
    for (
      let element = node.nodeType === 1 ? (node as Element) : parentOf(node);
      element;
      element = parentOf(element)
    ) {
      if (this.skipped(element)) return true;
    }
    return false;
  }

  /** The page's own text of a node, which may differ from what it shows once translated (see scan). */
  private textOf: (node: Text) => string = (node) => node.nodeValue ?? '';

  /**
   * The units under `root` (the root included), in document order. `textOf` gives a text node's own
   * text: a translated sentence may leave a node with only a number or nothing, yet it is still text.
   */
  scan(root: Node, textOf?: (node: Text) => string): Unit[] {
    if (textOf) this.textOf = textOf;
    const units: Unit[] = [];
    if (root.nodeType === 3 || root.nodeType === 11) {
      // A text node, or a shadow root: its element (or host) is read again.
      const parent = root.nodeType === 3 ? parentOf(root) : (root as ShadowRoot).host;
      if (parent && !this.insideSkipped(parent)) this.visit(parent, units);
    } else if (root.nodeType === 1 && !this.insideSkipped(root)) {
      // A change inside a sentence with inline parts re-reads the whole sentence.
      const element = root as Element;
      const sentence =
        element.parentElement && this.isBlock(element.parentElement) ? element.parentElement : element;
      this.visit(sentence, units);
    }
    return units;
  }

  protected visit(element: Element, units: Unit[]) {
    if (this.skipped(element)) return;
    this.attributes(element, units);
    if (element.shadowRoot) {
      this.shadowRoot(element.shadowRoot);
      this.visitChildren(element.shadowRoot, element, units);
    }
    if (this.isBlock(element)) {
      units.push(this.block(element));
      // The words inside the inline parts (`avec <b>organic flour</b>`) are phrases of their own.
      for (const child of element.children) this.visit(child, units);
      return;
    }
    this.visitChildren(element, element, units);
  }

  /** The children of an element or of a shadow root, whose loose text belongs to `element`. */
  protected visitChildren(parent: ParentNode, element: Element, units: Unit[]) {
    // Adjacent text nodes (as `Clicked {count} times` renders in React) read as one phrase.
    let run: Text[] = [];
    const flush = () => {
      if (run.length === 1) {
        if (isTranslatable(this.textOf(run[0]!))) units.push({ kind: 'text', element, node: run[0]! });
      } else if (run.length > 1 && isTranslatable(run.map((node) => this.textOf(node)).join(''))) {
        units.push({ kind: 'block', element, groups: [run], inline: [] });
      }
      run = [];
    };
    for (const child of parent.childNodes) {
      if (child.nodeType === 3) run.push(child as Text);
      else if (child.nodeType === 1) {
        flush();
        this.visit(child as Element, units);
      }
    }
    flush();
  }

  private attributes(element: Element, units: Unit[]) {
    for (const name of translatedAttributesOf(element)) {
      const value = element.getAttribute(name);
      if (value && isTranslatable(value)) units.push({ kind: 'attr', element, name });
    }
  }

  /** A sentence: text of its own next to inline elements, and no other element children. */
  isBlock(element: Element): boolean {
    if (!this.inline.size || !element.firstElementChild) return false;
    let text = '';
    for (const child of element.childNodes) {
      if (child.nodeType === 3) text += this.textOf(child as Text);
      else if (child.nodeType === 1 && !this.inline.has((child as Element).tagName.toUpperCase()))
        return false;
    }
    return isTranslatable(text);
  }

  private block(element: Element): Unit {
    const groups: Text[][] = [[]];
    const inline: Element[] = [];
    for (const child of element.childNodes) {
      if (child.nodeType === 3) groups[groups.length - 1]!.push(child as Text);
      else if (child.nodeType === 1) {
        inline.push(child as Element);
        groups.push([]);
      }
    }
    return { kind: 'block', element, groups, inline };
  }

  /** The phrase context of an element: empty unless the project turns DOM context on. */
  contextOf(element: Element): string {
    const { domContextEnabled, domContextSelectors, contextDepth } = this.config;
    if (!domContextEnabled) return '';
    for (const selector of domContextSelectors) {
      const scope = safeClosest(element, selector);
      if (scope) return scope.getAttribute('data-loco-context') || scope.id || selector;
    }
    const path: string[] = [];
    for (
      let node: Element | null = element;
      node && node.tagName !== 'BODY' && path.length < contextDepth;
      node = parentOf(node)
    ) {
      path.unshift(node.tagName.toLowerCase());
    }
    return path.join('>');
  }
}

function safeClosest(element: Element, selector: string): Element | null {
  try {
    return element.closest(selector);
  } catch {
    return null; // a selector the browser does not understand matches nothing
  }
}

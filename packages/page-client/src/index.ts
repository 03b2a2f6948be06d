import { Api } from './api.ts';
import { Localizer, MARK, translationMap, type Phrase } from './localizer.ts';
import {
  chooseLanguage,
  optionsFromScript,
  storeLanguage,
  translationLikely,
  type ClientOptions,
} from './options.ts';
import { Scanner, type CrawlerConfig } from './scanner.ts';
import { TRANSLATED_ATTRIBUTES } from './text-rules.ts';
import { renderSwitcher } from './switcher.ts';
import { forgetEditToken, takeEditToken } from './edit-token.ts';
import type { EditorOptions } from './editor.ts';
import { LanguagePaths } from './language-paths.ts';

const HIDE_ATTRIBUTE = 'data-loco-loading';
const HIDE_TIMEOUT_MS = 1500;
const REGISTER_DELAY_MS = 400;
/** What is watched in the body and in shadow roots: text, elements, and the attributes we translate. */
const BODY_CHANGES: MutationObserverInit = {
  childList: true,
  subtree: true,
  characterData: true,
  attributes: true,
  attributeFilter: [...TRANSLATED_ATTRIBUTES],
};
const DEFAULT_CONFIG: CrawlerConfig = {
  blockedTags: [],
  inlineTags: ['a', 'b', 'strong', 'i', 'em', 'span', 'small', 'sup', 'sub', 'u', 'mark', 'abbr'],
  domContextSelectors: [],
  contextDepth: 0,
  domContextEnabled: false,
};

export interface LocoApi {
  init(options: Partial<ClientOptions>): Promise<void>;
  textnodes(): Phrase[];
  apply(): void;
  /** Shows the page in `code` (null: the original); a code `languages()` does not offer is refused with a warning. */
  setLanguage(code: string | null): Promise<void>;
  getLanguage(): string | null;
  languages(): { code: string; name: string }[];
  /** Renders the language switcher into `target` (an element or a selector), or floating when none. */
  switcher(target?: Element | string | null): HTMLElement | null;
}

const html = document.documentElement;

/** Hides the page until the first translation pass (or the timeout), so visitors see no flicker. */
function hidePage(): () => void {
  const style = document.createElement('style');
  style.textContent = `html[${HIDE_ATTRIBUTE}] body{visibility:hidden!important}`;
  document.head.appendChild(style);
  html.setAttribute(HIDE_ATTRIBUTE, '');
  const show = () => {
    html.removeAttribute(HIDE_ATTRIBUTE);
    style.remove();
  };
  setTimeout(show, HIDE_TIMEOUT_MS);
  return show;
}

/** Loads the editor's own script from the translator and starts it (only pages opened to edit need it). */
function startEditor(server: string, options: EditorOptions) {
  const script = document.createElement('script');
  script.src = `${server}/client-editor.js`;
  script.onload = () => void window.LocoEditor?.start(options);
  script.onerror = () => console.warn('loco: the editor could not be loaded');
  document.head.append(script);
}

const domReady = () =>
  document.readyState === 'loading'
    ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }))
    : Promise.resolve();

function createClient(): LocoApi {
  let api: Api | undefined;
  let localizer: Localizer | undefined;
  let offered: { code: string; name: string }[] = [];
  /** Told when the page changes language (the in-page editor's toolbar says which it edits). */
  const languageListeners = new Set<() => void>();
  let observer: MutationObserver | undefined;
  const sent = new Set<string>();
  let queue: { key: string; context: string; slots?: string[] }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Set by the translator on a page it served translated (SEO mode): no pass over what it wrote. */
  const rendered = html.getAttribute('data-loco-rendered');
  let paths = new LanguagePaths(rendered, Boolean(rendered));
  /**
   * A page the translator rendered in a browser is the site's app: its router knows the original
   * addresses only, so it is shown at its original address (the language is kept as the visitor's
   * choice), and its components render afresh where the translator's copy of their shadow roots is.
   */
  const prerendered = rendered !== null && html.hasAttribute('data-loco-prerendered');
  if (prerendered) {
    history.replaceState(history.state, '', paths.originalPath() + location.search + location.hash);
    const define = customElements.define;
    customElements.define = function (this: CustomElementRegistry, name, constructor, options) {
      for (const element of document.querySelectorAll(name)) element.shadowRoot?.replaceChildren();
      return define.call(this, name, constructor, options);
    };
  }

  /** True while the page's text is the translator's own (see `rendered`): nothing of it is registered. */
  let muted = false;
  const register = (key: string, context: string, slots?: string[]) => {
    const id = `${key}\u0000${context}`;
    if (muted || sent.has(id)) return;
    sent.add(id);
    queue.push(slots?.length ? { key, context, slots } : { key, context });
    timer ??= setTimeout(() => {
      const batch = queue;
      queue = [];
      timer = undefined;
      api
        ?.register(batch, location.origin + paths.originalPath())
        .catch((error: unknown) => console.warn(error));
    }, REGISTER_DELAY_MS);
  };

  /** The open shadow roots of web components, each followed like the body once the observer runs. */
  const shadowRoots = new Set<ShadowRoot>();
  const followShadowRoot = (root: ShadowRoot) => {
    if (shadowRoots.has(root)) return;
    shadowRoots.add(root);
    observer?.observe(root, BODY_CHANGES);
  };
  // A component attaches its shadow root when it is defined or connected, often after the first pass:
  // the root is followed from birth, so what the component renders into it is seen as it appears.
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const root = attachShadow.call(this, init);
    if (init.mode === 'open') followShadowRoot(root);
    return root;
  };

  /** Follows the page as it changes (SPA routes, lazy content, re-renders), ignoring our own writes. */
  const observe = () => {
    observer = new MutationObserver((records) => {
      const roots = new Set<Node>();
      for (const record of records) {
        if (record.type === 'childList') record.addedNodes.forEach((node) => roots.add(node));
        else if (record.type === 'characterData' && !localizer!.isOurs(record.target))
          roots.add(record.target);
        else if (record.type === 'attributes' && !localizer!.isOurs(record.target, record.attributeName!))
          roots.add(record.target);
      }
      roots.forEach((root) => root.isConnected && localizer!.process(root));
    });
    observer.observe(document.body, BODY_CHANGES);
    for (const root of shadowRoots) observer.observe(root, BODY_CHANGES);
    // A client-side route changes the title and the description too.
    observer.observe(document.head, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['content'],
    });
  };

  /** The page's own `<html lang>`, put back when the original is shown (the translator keeps it aside). */
  const writtenLang = html.getAttribute(rendered ? 'data-loco-original-lang' : 'lang');
  const loadLanguage = async (code: string | null) => {
    localizer!.language = code;
    localizer!.translations = translationMap(code ? await api!.translations(code) : []);
  };
  /** Marks the document with the language it shows, for screen readers, hyphenation and search engines. */
  const markLanguage = (code: string | null) => {
    const lang = code ?? writtenLang;
    if (lang === null) html.removeAttribute('lang');
    else html.setAttribute('lang', lang);
  };
  /** The page's text, and the title and descriptions in its head. */
  const processPage = () => {
    localizer!.process(document.head);
    localizer!.process(document.body);
  };

  const client: LocoApi = {
    async init(options) {
      if (!options.apiKey || !options.server) {
        console.warn(
          'loco: set data-api-key on the script tag (and data-server when it is served elsewhere)',
        );
        return;
      }
      const show = !rendered && translationLikely(options.lang ?? null) ? hidePage() : () => undefined;
      try {
        api = new Api(options.server, options.apiKey);
        // A visitor is offered only languages with translations (not the original under another `lang`);
        // an editor, every configured one, to translate a language that has none yet.
        const editToken = takeEditToken();
        const [config, languages] = await Promise.all([
          api.crawlerConfig().catch(() => ({ ...DEFAULT_CONFIG, languagePaths: false })),
          api.languages(!editToken).catch(() => []),
        ]);
        offered = languages;
        paths = new LanguagePaths(rendered, Boolean(rendered) || config.languagePaths === true);
        localizer = new Localizer(new Scanner({ ...DEFAULT_CONFIG, ...config }, followShadowRoot), register);
        const choice = chooseLanguage(
          rendered ?? options.lang ?? null,
          offered.map((l) => l.code),
        );
        // A language asked for in the address is the visitor's choice: the next page keeps it.
        if (choice?.from === 'query' || rendered) storeLanguage(choice?.code ?? null);
        await loadLanguage(choice?.code ?? null).catch((error: unknown) => console.warn(error));
        await domReady();
        performance.mark('loco:first-pass-start');
        // A rendered page is translated already: only what the page adds later is looked at — and, on a
        // prerendered one, what its app rendered before now, without registering the translator's text.
        if (!rendered) {
          processPage();
          if (localizer.language) markLanguage(localizer.language);
        } else if (prerendered) {
          muted = true;
          processPage();
          muted = false;
        }
        performance.measure('loco:first-pass', 'loco:first-pass-start');
        observe();
        if (editToken)
          startEditor(options.server, {
            server: options.server,
            token: editToken,
            localizer,
            language: () => localizer!.language,
            fallback: offered[0]?.code ?? null,
            languages: offered,
            show: (code) => client.setLanguage(code),
            onLanguageChange: (listener) => languageListeners.add(listener),
            stop: forgetEditToken,
          });
        if (options.switcher != null)
          client.switcher(options.switcher === 'floating' ? null : options.switcher);
      } finally {
        show();
      }
    },
    textnodes: () => localizer?.phrases() ?? [],
    apply: () => localizer && processPage(),
    async setLanguage(code) {
      if (!localizer) return;
      // A language with nothing delivered would only mark the original text as that language.
      if (code !== null && !offered.some((language) => language.code === code)) {
        console.warn(`Loco: "${code}" has no delivered translation; the page stays as it is`);
        return;
      }
      storeLanguage(code);
      // Each language has its own address: go there.
      if (paths.enabled) return location.assign(paths.hrefOf(code));
      await loadLanguage(code);
      localizer.applyAll();
      processPage();
      markLanguage(code);
      for (const listener of languageListeners) listener();
    },
    getLanguage: () => localizer?.language ?? null,
    languages: () => offered,
    switcher(target) {
      if (!localizer || !offered.length) return null;
      const element = typeof target === 'string' && target ? document.querySelector(target) : target || null;
      return renderSwitcher(
        {
          languages: [
            { code: null, tag: writtenLang ?? '' },
            ...offered.map(({ code }) => ({ code, tag: code })),
          ],
          current: () => localizer!.language,
          hrefOf: (code) => paths.hrefOf(code),
          choose: (code) => client.setLanguage(code),
        },
        element instanceof Element ? element : null,
      );
    },
  };
  return client;
}

declare global {
  interface Window {
    Loco: LocoApi;
  }
}

if (!window.Loco) {
  window.Loco = createClient();
  const options = optionsFromScript(document.currentScript as HTMLScriptElement | null);
  if (options.apiKey) void window.Loco.init(options);
}
export { MARK };

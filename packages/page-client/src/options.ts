export interface ClientOptions {
  apiKey: string;
  /** Base URL of the translator (default: where the script came from). */
  server: string;
  /** Language forced by the page (`data-lang`), if any. */
  lang: string | null;
  /**
   * `data-switcher`: render the language switcher — a CSS selector of the element to put it in, or
   * empty (or `floating`) for a floating one at the bottom right. Absent: no switcher.
   */
  switcher: string | null;
}

/** Options from the script tag: `data-api-key`, `data-server`, `data-lang`, `data-switcher`. */
export function optionsFromScript(script: HTMLScriptElement | null): Partial<ClientOptions> {
  if (!script) return {};
  const server =
    script.getAttribute('data-server') || (script.src ? new URL(script.src, location.href).origin : '');
  return {
    apiKey: script.getAttribute('data-api-key') ?? undefined,
    server: server.replace(/\/+$/, ''),
    lang: script.getAttribute('data-lang'),
    switcher: script.getAttribute('data-switcher'),
  };
}

const STORAGE_KEY = 'loco:lang';

export function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeLanguage(code: string | null) {
  try {
    if (code) localStorage.setItem(STORAGE_KEY, code);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage disabled (private mode, sandboxed frame): the choice lasts for this page only
  }
}

/** Where a language choice came from: the page, the address, the visitor's earlier choice, the browser. */
export type ChoiceSource = 'page' | 'query' | 'stored' | 'browser';

const primary = (code: string) => code.split(/[-_]/)[0]!.toLowerCase();

/**
 * The language to show: the page's `data-lang`, then `?lang=`, then the visitor's stored choice, then
 * the browser's languages — the first the project offers, and where it came from.
 */
export function chooseLanguage(
  forced: string | null,
  offered: string[],
): { code: string; from: ChoiceSource } | null {
  const candidates: Array<[string | null | undefined, ChoiceSource]> = [
    [forced, 'page'],
    [new URLSearchParams(location.search).get('lang'), 'query'],
    [storedLanguage(), 'stored'],
    ...navigator.languages.map((code): [string, ChoiceSource] => [code, 'browser']),
  ];
  for (const [candidate, from] of candidates) {
    if (!candidate) continue;
    const match =
      offered.find((code) => code.toLowerCase() === candidate.toLowerCase()) ??
      offered.find((code) => primary(code) === primary(candidate));
    if (match) return { code: match, from };
  }
  return null;
}

/**
 * Whether the page is likely to be shown in another language than it was written in, so it is hidden
 * until the first pass (no flash of the original): a language asked for by the page, the address or the
 * visitor earlier, or a browser whose first language is not the page's.
 */
export function translationLikely(forced: string | null): boolean {
  if (forced || new URLSearchParams(location.search).get('lang') || storedLanguage()) return true;
  const visitor = navigator.languages[0];
  const written = document.documentElement.lang;
  return Boolean(visitor) && (!written || primary(visitor!) !== primary(written));
}

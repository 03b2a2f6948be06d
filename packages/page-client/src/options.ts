export interface ClientOptions {
  apiKey: string;
  /** Base URL of the translator (default: where the script came from). */
  server: string;
  /** Language forced by the page (`data-lang`), if any. */
  lang: string | null;
}

/** Options from the script tag: `data-api-key`, `data-server`, `data-lang`. */
export function optionsFromScript(script: HTMLScriptElement | null): Partial<ClientOptions> {
  if (!script) return {};
  const server =
    script.getAttribute('data-server') || (script.src ? new URL(script.src, location.href).origin : '');
  return {
    apiKey: script.getAttribute('data-api-key') ?? undefined,
    server: server.replace(/\/+$/, ''),
    lang: script.getAttribute('data-lang'),
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

/**
 * The language to show: the page's `data-lang`, then `?lang=`, then the visitor's stored choice, then
 * the browser's languages — the first the project offers.
 */
export function chooseLanguage(forced: string | null, offered: string[]): string | null {
  const query = new URLSearchParams(location.search).get('lang');
  const primary = (code: string) => code.split('-')[0]!.toLowerCase();
  for (const candidate of [forced, query, storedLanguage(), ...navigator.languages]) {
    if (!candidate) continue;
    const match =
      offered.find((code) => code.toLowerCase() === candidate.toLowerCase()) ??
      offered.find((code) => primary(code) === primary(candidate));
    if (match) return match;
  }
  return null;
}

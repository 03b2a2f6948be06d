/**
 * The language switcher a page can ask for (`data-switcher` on the script tag, or `Loco.switcher()`): a
 * button that opens a list of the languages, each named in its own language (no flags: a flag is a
 * country, not a language). It is a disclosure: Enter, Space or ArrowDown opens it, the arrows, Home and
 * End move between languages, Escape closes it and gives the focus back to the button. Each language is a
 * link (`?lang=fr`, or the page's language address in SEO mode, with `hreflang`), so it works as a link
 * too; a click switches in place (or goes to that address). It lives in a
 * shadow root (the page's CSS cannot break it) styled by CSS variables the page may set:
 * `--loco-switcher-color`, `--loco-switcher-background`, `--loco-switcher-border`,
 * `--loco-switcher-radius`, `--loco-switcher-font`, `--loco-switcher-accent`.
 */

export interface SwitcherLanguage {
  /** The language code, or null for the page's own language. */
  code: string | null;
  /** The code the page is written in, for `lang` (may be empty). */
  tag: string;
}

export interface SwitcherModel {
  languages: SwitcherLanguage[];
  current(): string | null;
  /** The address of this page in a language: `?lang=fr`, or `/fr/…` when the site has language addresses. */
  hrefOf(code: string | null): string;
  choose(code: string | null): Promise<void>;
}

const STYLE = `
:host { all: initial; font: var(--loco-switcher-font, 14px/1.4 system-ui, sans-serif); }
:host([data-floating]) { position: fixed; right: 16px; bottom: 16px; z-index: 2147483000; }
.switcher { position: relative; display: inline-block; color: var(--loco-switcher-color, #1a1a1a); }
button, a { font: inherit; color: inherit; }
button { background: var(--loco-switcher-background, #fff); border: var(--loco-switcher-border, 1px solid #8a8a8a);
  border-radius: var(--loco-switcher-radius, 6px); padding: 6px 12px; cursor: pointer; }
ul { position: absolute; bottom: 100%; right: 0; margin: 0 0 4px; padding: 4px 0; list-style: none; min-width: 100%;
  background: var(--loco-switcher-background, #fff); border: var(--loco-switcher-border, 1px solid #8a8a8a);
  border-radius: var(--loco-switcher-radius, 6px); }
ul[hidden] { display: none; }
a { display: block; padding: 6px 12px; text-decoration: none; white-space: nowrap; }
a:hover, a:focus { background: var(--loco-switcher-accent, #e8eefc); outline: 2px solid var(--loco-switcher-accent, #1c5fd4); outline-offset: -2px; }
a[aria-current="true"] { font-weight: 600; }
button:focus-visible { outline: 2px solid var(--loco-switcher-accent, #1c5fd4); outline-offset: 2px; }
`;

/** A language's name in that language ("Français"), for visitors who do not read the page's. */
export function autonym(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

let serial = 0;

/** Renders the switcher into `target`, or floating at the bottom right of the page when none is given. */
export function renderSwitcher(model: SwitcherModel, target: Element | null): HTMLElement {
  const host = document.createElement('loco-language-switcher');
  // Its own words are never translated or registered.
  host.setAttribute('data-loco-ignore', 'true');
  host.setAttribute('translate', 'no');
  if (!target) host.setAttribute('data-floating', '');
  const root = host.attachShadow({ mode: 'open' });
  const listId = `loco-languages-${++serial}`;
  root.innerHTML = `<style>${STYLE}</style><nav class="switcher" aria-label="Language"><button type="button" aria-expanded="false" aria-controls="${listId}"></button><ul id="${listId}" hidden></ul></nav>`;
  const button = root.querySelector('button')!;
  const list = root.querySelector('ul')!;

  const links = model.languages.map(({ code, tag }) => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    const lang = code ?? tag;
    link.textContent = lang ? autonym(lang) : 'Original';
    if (lang) {
      link.lang = lang;
      link.hreflang = lang;
    }
    link.href = model.hrefOf(code);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      close(true);
      void model.choose(code).then(update);
    });
    item.append(link);
    list.append(item);
    return { code, link };
  });

  const update = () => {
    const current = model.current();
    const shown = links.find((entry) => entry.code === current) ?? links[0];
    button.textContent = shown?.link.textContent ?? '';
    button.setAttribute('aria-label', `Language: ${button.textContent}`);
    for (const entry of links) entry.link.setAttribute('aria-current', String(entry === shown));
  };
  const open = (focus: 'current' | 'first' | 'last') => {
    list.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    const current = links.find((entry) => entry.link.getAttribute('aria-current') === 'true');
    (focus === 'first' ? links[0] : focus === 'last' ? links.at(-1) : (current ?? links[0]))?.link.focus();
  };
  function close(refocus: boolean) {
    list.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (refocus) button.focus();
  }

  button.addEventListener('click', () => (list.hidden ? open('current') : close(false)));
  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open(event.key === 'ArrowDown' ? 'current' : 'last');
    }
  });
  list.addEventListener('keydown', (event) => {
    const index = links.findIndex((entry) => entry.link === root.activeElement);
    const move = (to: number) => links[(to + links.length) % links.length]!.link.focus();
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(links.length - 1);
    else if (event.key === 'Escape') close(true);
    else if (event.key === ' ') (links[index]?.link ?? links[0]!.link).click();
    else return;
    event.preventDefault();
  });
  // Leaving the switcher (Tab, a click elsewhere) closes the list.
  host.addEventListener('focusout', (event) => {
    if (!root.contains(event.relatedTarget as Node | null)) close(false);
  });

  update();
  (target ?? document.body).append(host);
  return host;
}

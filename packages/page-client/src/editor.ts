import type { Localizer } from './localizer.ts';

/**
 * Editing translations on the live page. The dashboard opens a page with `#loco-edit=<token>`: a
 * short-lived token of the signed-in member (the page key never writes). The token is moved out of the
 * address into this tab's storage, a toolbar says editing is on, and Alt+click on a text (or "Pick a
 * text", then a click) opens an editor for its translation in the language shown: Save, or Save and mark
 * reviewed. Pages opened without a token get none of this: this module is a script of its own
 * (`/client-editor.js`, see editor-entry.ts), loaded only when there is a token.
 */

const STYLE = `
:host { all: initial; font: 14px/1.4 system-ui, sans-serif; color: #1a1a1a; }
.bar { position: fixed; left: 16px; bottom: 16px; max-width: calc(100vw - 32px); z-index: 2147483001; display: flex;
  flex-wrap: wrap; gap: 12px; align-items: center; padding: 6px 12px; background: #fff8d6; border: 1px solid #8a7a2a; border-radius: 6px; }
.bar span { flex: 1; }
button, select { font: inherit; padding: 4px 10px; cursor: pointer; }
dialog { width: min(520px, 90vw); border: 1px solid #8a8a8a; border-radius: 8px; }
dialog p { margin: 0 0 8px; }
.source { padding: 6px 8px; background: #f2f2f2; border-radius: 4px; white-space: pre-wrap; }
textarea { box-sizing: border-box; width: 100%; min-height: 80px; font: inherit; margin: 8px 0; }
.error { color: #a00000; }
.actions { display: flex; gap: 8px; justify-content: flex-end; }
`;

export interface EditorOptions {
  server: string;
  token: string;
  localizer: Localizer;
  /** The language being edited: the one shown (the editor switches to `fallback` when none is). */
  language(): string | null;
  fallback: string | null;
  /** The languages visitors are offered (those with delivered translations): the toolbar's choice. */
  languages: Array<{ code: string; name: string }>;
  show(code: string): Promise<void>;
  /** Calls `listener` after each change of the page's language, whoever made it (Loco.setLanguage too). */
  onLanguageChange(listener: () => void): void;
  /** Called when the person stops editing. */
  stop(): void;
}

/** Calls the translator with the edit token; the answer, or an Error with the server's message. */
async function call<T>(options: EditorOptions, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(options.server + path, {
    method,
    headers: { 'x-edit-token': options.token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await response.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(answer.error?.message ?? `The translator answered ${response.status}.`);
  return answer;
}

/** Saves a translation (and marks it reviewed when asked) through the editing routes. */
async function save(
  options: EditorOptions,
  lang: string,
  key: string,
  context: string,
  value: string,
  review: boolean,
) {
  await call(options, 'POST', '/api/translations', { lang, translations: [{ key, context, value }] });
  if (!review) return;
  const { rows } = await call<{ rows: { key: string; context: string; translationId: number | null }[] }>(
    options,
    'GET',
    `/api/translations/all?lang=${encodeURIComponent(lang)}&search=${encodeURIComponent(key)}&limit=50`,
  );
  const row = rows.find((candidate) => candidate.key === key && candidate.context === context);
  if (row?.translationId)
    await call(options, 'PATCH', '/api/translations/state', { ids: [row.translationId], state: 'reviewed' });
}

export async function startEditor(options: EditorOptions): Promise<void> {
  if (!options.language() && options.fallback) await options.show(options.fallback);
  const host = document.createElement('loco-editor');
  host.setAttribute('data-loco-ignore', 'true');
  host.setAttribute('translate', 'no');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>${STYLE}</style>
<div class="bar" role="region" aria-label="Translation editing"><span></span>
<label>Language <select data-language><option value="" disabled>Choose</option></select></label>
<button type="button" data-pick>Pick a text</button><button type="button" data-stop>Stop editing</button></div>
<dialog aria-labelledby="loco-edit-title"><form method="dialog">
<p id="loco-edit-title"></p><div class="source"></div>
<label>Translation<textarea></textarea></label><p class="error" role="alert"></p>
<div class="actions"><button value="cancel" formnovalidate>Cancel</button><button value="save">Save</button>
<button value="review">Save and mark reviewed</button></div></form></dialog>`;
  const label = root.querySelector('.bar span')!;
  const dialog = root.querySelector('dialog')!;
  const title = root.querySelector('#loco-edit-title')!;
  const source = root.querySelector('.source')!;
  const textarea = root.querySelector('textarea')!;
  const error = root.querySelector('.error')!;
  const picker = root.querySelector('select')!;
  for (const { code, name } of options.languages) {
    const option = document.createElement('option');
    option.value = code;
    option.textContent = `${name} (${code})`;
    picker.append(option);
  }
  const nameOf = (code: string) =>
    picker.querySelector(`option[value="${CSS.escape(code)}"]`)?.textContent ?? code;
  /** The toolbar says which language Alt+click edits: the one the page shows now. */
  const showLanguage = () => {
    const lang = options.language();
    picker.value = lang ?? '';
    label.textContent = lang
      ? `Editing the ${nameOf(lang)} translation: Alt+click a text to edit it.`
      : 'The page shows its own language: choose one to edit its translation.';
  };
  showLanguage();
  options.onLanguageChange(showLanguage);
  picker.addEventListener('change', () => void options.show(picker.value));
  document.body.append(host);

  let picking = false;
  let editing: { key: string; context: string } | undefined;
  const edit = (target: Node) => {
    const phrase = options.localizer.phraseAt(target);
    const lang = options.language();
    if (!phrase || !lang) return false;
    editing = { key: phrase.key, context: phrase.context };
    title.textContent = `Translate into ${nameOf(lang)}:`;
    source.textContent = phrase.key;
    textarea.value = phrase.translation ?? '';
    error.textContent = '';
    dialog.showModal();
    textarea.focus();
    return true;
  };
  const onClick = (event: MouseEvent) => {
    if (!(event.altKey || picking)) return;
    const target = event.composedPath()[0] as Node;
    if (host.contains(target) || root.contains(target)) return;
    if (edit(target)) {
      event.preventDefault();
      event.stopPropagation();
    }
    picking = false;
  };
  document.addEventListener('click', onClick, true);

  root.querySelector('[data-pick]')!.addEventListener('click', () => (picking = true));
  root.querySelector('[data-stop]')!.addEventListener('click', () => {
    document.removeEventListener('click', onClick, true);
    host.remove();
    options.stop();
  });
  dialog.addEventListener('submit', (event) => {
    const action = (event.submitter as HTMLButtonElement | null)?.value;
    if (action === 'cancel' || !editing) return;
    event.preventDefault();
    const lang = options.language();
    const value = textarea.value.trim();
    if (!lang || !value) {
      error.textContent = 'Enter the translation.';
      return;
    }
    const { key, context } = editing;
    save(options, lang, key, context, value, action === 'review').then(
      () => {
        options.localizer.setTranslation(key, context, value);
        dialog.close();
      },
      (failure: unknown) =>
        (error.textContent = failure instanceof Error ? failure.message : String(failure)),
    );
  });
}

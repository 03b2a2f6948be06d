// The token that turns editing on (see editor.ts), in the main script: the editor itself loads only with one.

const TOKEN_STORAGE = 'loco:edit';
const HASH = /(?:^#|&)loco-edit=(tet_[\w.-]+)/;

/** The edit token of this tab: from the address (then removed from it), or kept from before. */
export function takeEditToken(): string | null {
  const match = HASH.exec(location.hash);
  try {
    if (match) {
      sessionStorage.setItem(TOKEN_STORAGE, match[1]!);
      history.replaceState(history.state, '', location.pathname + location.search);
    }
    return sessionStorage.getItem(TOKEN_STORAGE);
  } catch {
    return match?.[1] ?? null;
  }
}

export function forgetEditToken() {
  try {
    sessionStorage.removeItem(TOKEN_STORAGE);
  } catch {
    // storage disabled: the token lived in memory only
  }
}

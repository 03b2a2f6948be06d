// The editor's own script (`/client-editor.js`), which the page client loads only for a page opened with
// an edit token: visitors never download it.
import { startEditor, type EditorOptions } from './editor.ts';

declare global {
  interface Window {
    LocoEditor?: { start(options: EditorOptions): Promise<void> };
  }
}

window.LocoEditor = { start: startEditor };

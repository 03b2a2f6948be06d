import { describe, expect, it } from 'vitest';
import { LineEditor, type LineAction } from './line-editor.ts';

/** Types `keys` into a new editor: what it echoed and the actions it asked for. */
function type(keys: string) {
  let echoed = '';
  const editor = new LineEditor((text) => (echoed += text));
  const actions: LineAction[] = [];
  for (const char of keys) {
    const action = editor.key(char);
    if (action) actions.push(action);
  }
  return { echoed, actions };
}

describe('LineEditor', () => {
  it('echoes typed characters and hands the line over on Enter', () => {
    expect(type('echo hé\r')).toEqual({ echoed: 'echo hé\r\n', actions: [{ enter: 'echo hé' }] });
    expect(type('ls\n').actions).toEqual([{ enter: 'ls' }]);
  });

  it('erases one character with backspace, nothing on an empty line', () => {
    expect(type('\x7flx\x7fs\bs\r')).toEqual({ echoed: 'lx\b \bs\b \bs\r\n', actions: [{ enter: 'ls' }] });
  });

  it('drops the line on ^C and ends the input on ^D only at an empty line', () => {
    expect(type('abc\x03\r')).toEqual({ echoed: 'abc^C\r\n\r\n', actions: ['interrupt', { enter: '' }] });
    expect(type('ab\x04').actions).toEqual([]);
    expect(type('\x04').actions).toEqual(['end-of-input']);
  });

  it('ignores other control characters', () => {
    expect(type('a\x1b\tb\r')).toEqual({ echoed: 'ab\r\n', actions: [{ enter: 'ab' }] });
  });
});

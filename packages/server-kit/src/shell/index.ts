export { evaluateArithmetic } from './shell-arithmetic.ts';
export { LineEditor, type LineAction } from './line-editor.ts';

import { describe, expect, it } from 'vitest';
import { evaluateArithmetic } from './shell-arithmetic.ts';

describe('shell arithmetic', () => {
  it('works on integers as sh does: precedence, parentheses, signs, truncating division', () => {
    expect(evaluateArithmetic('6*7')).toBe(42n);
    expect(evaluateArithmetic(' (1+2) * -3 % 4 ')).toBe(-1n);
    expect(evaluateArithmetic('2*(3+4)-+1')).toBe(13n);
    expect(evaluateArithmetic('-7/2')).toBe(-3n);
    expect(evaluateArithmetic('99999999999999999999+1')).toBe(100000000000000000000n);
  });

  it('refuses division by zero and what is no expression', () => {
    expect(() => evaluateArithmetic('7/0')).toThrow('division by 0');
    expect(() => evaluateArithmetic('(1+2')).toThrow("missing `)'");
    expect(() => evaluateArithmetic('1+')).toThrow('operand expected');
    expect(() => evaluateArithmetic('1 2')).toThrow('error token is "2"');
    expect(() => evaluateArithmetic('x')).toThrow('operand expected');
  });
});

/** `$((…))` of a POSIX shell, integers only: + - * / % and parentheses. Throws on anything else. */
export function evaluateArithmetic(expression: string): bigint {
  const tokens = expression.match(/\d+|[-+*/%()]|\S/g) ?? [];
  let index = 0;
  const peek = () => tokens[index];
  const take = () => tokens[index++];

  const primary = (): bigint => {
    const token = take();
    if (token === '(') {
      const value = sum();
      if (take() !== ')') throw new Error("missing `)'");
      return value;
    }
    if (token === '-') return -primary();
    if (token === '+') return primary();
    if (token && /^\d+$/.test(token)) return BigInt(token);
    throw new Error(`syntax error: operand expected (error token is "${token ?? ''}")`);
  };
  const product = (): bigint => {
    let value = primary();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const operator = take();
      const right = primary();
      if (operator === '*') value *= right;
      else if (right === 0n) throw new Error('division by 0');
      else value = operator === '/' ? value / right : value % right;
    }
    return value;
  };
  const sum = (): bigint => {
    let value = product();
    while (peek() === '+' || peek() === '-') value = take() === '+' ? value + product() : value - product();
    return value;
  };

  const value = sum();
  if (index < tokens.length) throw new Error(`syntax error in expression (error token is "${peek()}")`);
  return value;
}

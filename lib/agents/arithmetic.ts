// A small arithmetic evaluator for the `calculate` tool: numbers, + - * / % ^ (right-associative
// power), unary minus and parentheses. A recursive-descent parser, never `eval`.
export function evaluateArithmetic(expression: string): number {
  const tokens = tokenize(expression);
  let index = 0;
  const peek = () => tokens[index];
  const next = () => tokens[index++];

  const primary = (): number => {
    const token = next();
    if (token === undefined) throw new Error("The expression ends too early.");
    if (token === "(") {
      const value = sum();
      if (next() !== ")") throw new Error("A closing parenthesis is missing.");
      return value;
    }
    if (token === "-") return -power();
    if (token === "+") return power();
    const value = Number(token);
    if (!Number.isFinite(value)) throw new Error(`Unexpected "${token}".`);
    return value;
  };
  const power = (): number => {
    const base = primary();
    if (peek() !== "^") return base;
    next();
    return base ** power();
  };
  const product = (): number => {
    let value = power();
    for (let op = peek(); op === "*" || op === "/" || op === "%"; op = peek()) {
      next();
      const right = power();
      if ((op === "/" || op === "%") && right === 0) throw new Error("Division by zero.");
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    for (let op = peek(); op === "+" || op === "-"; op = peek()) {
      next();
      value = op === "+" ? value + product() : value - product();
    }
    return value;
  };

  const value = sum();
  if (index < tokens.length) throw new Error(`Unexpected "${tokens[index]}".`);
  if (!Number.isFinite(value)) throw new Error("The result is not a finite number.");
  return value;
}

function tokenize(expression: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*(\d+(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+|[-+*/%^()])/iy;
  let position = 0;
  while (position < expression.length) {
    if (/^\s*$/.test(expression.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(expression);
    if (!match?.[1]) throw new Error(`Unexpected character at ${position + 1}.`);
    tokens.push(match[1]);
    position = pattern.lastIndex;
  }
  if (tokens.length === 0) throw new Error("The expression is empty.");
  return tokens;
}

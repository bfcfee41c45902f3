/**
 * Builds one string that matches a JSON-schema `pattern`, for the common regex shapes: literals,
 * escapes (\d \w \s), character classes, groups, alternation and quantifiers. Returns undefined
 * for anything it can't handle (lookarounds, backreferences) or when the result doesn't match.
 */

const CLASS_CANDIDATES = ["a", "A", "0", "1", "x", "-", "_", " ", ".", "@"];

interface Cursor {
  src: string;
  pos: number;
}

class Unsupported extends Error {}

function escapeChar(ch: string): string {
  switch (ch) {
    case "d":
      return "4";
    case "w":
    case "D":
    case "S":
      return "a";
    case "s":
      return " ";
    case "W":
      return "-";
    case "b":
    case "B":
      return "";
    case "n":
      return "\n";
    case "t":
      return "\t";
    default:
      if (/[1-9kpPux]/.test(ch)) throw new Unsupported(`\\${ch}`);
      return ch;
  }
}

function readClass(cur: Cursor): string {
  const start = cur.pos;
  cur.pos++; // "["
  while (cur.pos < cur.src.length && cur.src[cur.pos] !== "]") {
    cur.pos += cur.src[cur.pos] === "\\" ? 2 : 1;
  }
  const body = cur.src.slice(start + 1, cur.pos);
  cur.pos++; // "]"
  const cls = new RegExp(`^[${body}]$`, "u");
  const first = body.startsWith("^") || body.startsWith("\\") ? [] : [body.charAt(0)];
  const pick = [...first, ...CLASS_CANDIDATES].find((ch) => cls.test(ch));
  if (pick === undefined) throw new Unsupported(`[${body}]`);
  return pick;
}

function readQuantifier(cur: Cursor): number {
  const ch = cur.src[cur.pos];
  let count = 1;
  if (ch === "+" || ch === "*" || ch === "?") {
    count = ch === "+" ? 1 : 0;
    cur.pos++;
  } else if (ch === "{") {
    const match = /^\{(\d+)(?:,(\d*))?\}/.exec(cur.src.slice(cur.pos));
    if (!match) return 1;
    count = Number(match[1]);
    cur.pos += match[0].length;
  } else return 1;
  if (cur.src[cur.pos] === "?") cur.pos++; // lazy
  return count;
}

/** Parses alternatives until ")" or the end; returns the first alternative's string. */
function readAlternatives(cur: Cursor): string {
  const alternatives: string[] = [];
  let current = "";
  while (cur.pos < cur.src.length) {
    const ch = cur.src.charAt(cur.pos);
    if (ch === ")") break;
    if (ch === "|") {
      alternatives.push(current);
      current = "";
      cur.pos++;
      continue;
    }
    let atom: string;
    if (ch === "^" || ch === "$") {
      cur.pos++;
      continue;
    }
    if (ch === "\\") {
      atom = escapeChar(cur.src.charAt(cur.pos + 1));
      cur.pos += 2;
    } else if (ch === "[") atom = readClass(cur);
    else if (ch === "(") {
      cur.pos++;
      if (cur.src.startsWith("?:", cur.pos)) cur.pos += 2;
      else if (/^\?<[A-Za-z]/.test(cur.src.slice(cur.pos)))
        cur.pos = cur.src.indexOf(">", cur.pos) + 1;
      else if (cur.src[cur.pos] === "?") throw new Unsupported("lookaround");
      atom = readAlternatives(cur);
      cur.pos++; // ")"
    } else {
      atom = ch === "." ? "a" : ch;
      cur.pos++;
    }
    current += atom.repeat(readQuantifier(cur));
  }
  alternatives.push(current);
  return alternatives[0] ?? "";
}

export function sampleFromPattern(pattern: RegExp): string | undefined {
  try {
    const value = readAlternatives({ src: pattern.source, pos: 0 });
    return pattern.test(value) ? value : undefined;
  } catch (error) {
    // Unsupported regex features (or a class we can't satisfy): the caller keeps its own value.
    if (error instanceof Unsupported || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

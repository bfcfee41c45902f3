// Every repository path that a doc or a code comment names exists, so the docs cannot drift from
// the code they describe.
//
// What is read: every `*.md` file, and the comments of every source file (`//` and `/* */` in
// TypeScript and JavaScript, `#` lines of shell scripts, `--` lines of SQL), outside
// node_modules, build output, local data, test fixtures (data, not docs) and bench/results (a
// benchmark's printed output).
//
// What counts as a path: a token that starts with one of the top-level folders below, not glued to
// a preceding word, slash or dot (so `node_modules/next/...`, `@/lib/...` and URLs are not read),
// made of path characters; trailing punctuation of the sentence is dropped. Paths are relative to
// the repository's root wherever they are written. A token names a file or a folder; without an
// extension it may also name a module (`lib/kernel/errors` for `errors.ts`). Placeholders end the
// token (`lib/<name>/` is read as `lib/`).
//
// Patterns: a segment holding `*`, `?` or `{a,b}` is a glob and must match at least one entry
// (`**` any depth); a segment in brackets that does not exist as written (`[...]`, `[id]`) stands for
// any dynamic route segment of that folder (a child named `[…]`). A path that `.gitignore` ignores
// by a pattern naming its folder (`bench/results/*.json`) is a run's output, which a clean checkout
// does not hold: it is not looked for.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TOP = [
  "app",
  "lib",
  "components",
  "db",
  "inngest",
  "tests",
  "e2e",
  "bench",
  "scripts",
  "docs",
];
const SKIP_DIRS = new Set([
  "node_modules",
  ".next",
  ".data",
  ".git",
  "test-results",
  "playwright-report",
  "tests/fixtures",
  "bench/results",
]);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const MODULE_EXTENSIONS = [".ts", ".tsx", ".js", ".mjs", ".md", ".sh", ".sql", ".json", ".css"];

function files(dir = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !SKIP_DIRS.has(rel)) out.push(...files(rel));
    } else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** The comments of a file as [line, text] pairs; a doc is all comment. */
function comments(file: string, text: string): Array<[number, string]> {
  if (file.endsWith(".md")) return text.split("\n").map((line, i) => [i + 1, line]);
  if (file.endsWith(".sh") || file === ".ci/run") return prefixed(text, /^\s*#(.*)$/);
  if (file.endsWith(".sql")) return prefixed(text, /--(.*)$/);
  if (!CODE.test(file)) return [];
  const out: Array<[number, string]> = [];
  for (const match of text.matchAll(COMMENT)) {
    out.push([text.slice(0, match.index).split("\n").length, match[0]]);
  }
  return out;
}

// A comment starts a line or follows a space, `{`, `(`, `,` or `;`: so a URL's `//` and a glob's
// `/**/` inside a string are not read as comments. (The project's TypeScript 7 ships no parser
// API, and this is enough for comments as the project writes them.)
const COMMENT = /(?<=^|[\s{(,;])(?:\/\*[\s\S]*?\*\/|\/\/[^\n]*)/g;

function prefixed(text: string, pattern: RegExp): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  text.split("\n").forEach((line, i) => {
    const match = pattern.exec(line);
    if (match) out.push([i + 1, match[1] ?? ""]);
  });
  return out;
}

const TOKEN = new RegExp(String.raw`(?<![\w./@-])(?:${TOP.join("|")})/[\w.\-/\[\]*?{},()@+]*`, "g");

/** The path tokens of a text, without the sentence's trailing punctuation. */
function pathTokens(text: string): string[] {
  const out: string[] = [];
  // A Markdown link's text ends where its target starts: `[docs/api.md](docs/api.md)` is two tokens.
  for (const [raw] of text.replaceAll("](", "] (").matchAll(TOKEN)) {
    let token = raw;
    for (;;) {
      const trimmed = token
        .replace(/[.,:;]+$/, "")
        .replace(/\)$/, (close) => (unbalanced(token, "(", ")") ? "" : close))
        .replace(/\]$/, (close) => (unbalanced(token, "[", "]") ? "" : close))
        .replace(/\}$/, (close) => (unbalanced(token, "{", "}") ? "" : close));
      if (trimmed === token) break;
      token = trimmed;
    }
    out.push(token);
  }
  return out;
}

function unbalanced(token: string, open: string, close: string): boolean {
  return token.split(close).length > token.split(open).length;
}

const IGNORED = readFileSync(path.join(ROOT, ".gitignore"), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => /^[^#!].*\/./.test(line))
  .map((line) => line.replace(/^\//, ""));
const UNIGNORED = readFileSync(path.join(ROOT, ".gitignore"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("!"))
  .map((line) => line.slice(1).trim());
const isOutput = (token: string) =>
  IGNORED.some((pattern) => path.matchesGlob(token, pattern)) &&
  !UNIGNORED.some((pattern) => path.matchesGlob(token, pattern));

const isGlob = (segment: string) => /[*?{]/.test(segment);

/** Whether the token names something in the repository, by the rules at the top. */
function exists(token: string, root = ROOT): boolean {
  const segments = token.split("/");
  const trailingSlash = segments.at(-1) === "";
  if (trailingSlash) segments.pop();
  return resolve(root, segments, trailingSlash);
}

function resolve(dir: string, segments: string[], mustBeDir: boolean): boolean {
  const [segment, ...rest] = segments;
  if (segment === undefined) return !mustBeDir || isDirectory(dir);
  if (segment === "**") {
    if (resolve(dir, rest, mustBeDir)) return true;
    return children(dir).some(
      (child) =>
        isDirectory(path.join(dir, child)) && resolve(path.join(dir, child), segments, mustBeDir),
    );
  }
  const names = children(dir);
  let candidates: string[];
  if (names.includes(segment)) candidates = [segment];
  else if (isGlob(segment)) candidates = names.filter((name) => path.matchesGlob(name, segment));
  else if (/^\[.*\]$/.test(segment)) candidates = names.filter((name) => name.startsWith("["));
  else if (rest.length === 0 && !mustBeDir && !path.extname(segment))
    candidates = MODULE_EXTENSIONS.map((ext) => segment + ext).filter((name) =>
      names.includes(name),
    );
  else candidates = [];
  return candidates.some((name) => resolve(path.join(dir, name), rest, mustBeDir));
}

function children(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // Not a folder (a file named as if it had children): nothing below it.
    return [];
  }
}

function isDirectory(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

describe("paths named in docs and comments", () => {
  it("reads tokens as paths by the rules at the top of this file", () => {
    expect(pathTokens("see `lib/turns/engine.ts`, then (lib/kernel/errors.ts).")).toEqual([
      "lib/turns/engine.ts",
      "lib/kernel/errors.ts",
    ]);
    expect(pathTokens("node_modules/next/dist/docs/ and @/lib/x and https://x.dev/docs/a")).toEqual(
      [],
    );
    expect(pathTokens("`app/(app)/w/[workstreamId]/page.tsx` and lib/<name>/")).toEqual([
      "app/(app)/w/[workstreamId]/page.tsx",
      "lib/",
    ]);
    expect(pathTokens("[docs/api.md](docs/api.md#routes)")).toEqual(["docs/api.md", "docs/api.md"]);
    expect(exists("lib/**/*.test.ts")).toBe(true);
    expect(exists("app/api/[...]/missing.ts")).toBe(false);
    expect(exists("app/api/workstreams/[...]/route.ts")).toBe(true);
    expect(exists("lib/kernel/errors")).toBe(true);
    expect(exists("lib/kernel/errors.ts/")).toBe(false);
    expect(exists("lib/no-such-folder")).toBe(false);
    expect(exists("lib/**/*.nothing")).toBe(false);
  });

  it("every path a doc or a comment names exists in the repository", () => {
    const missing: string[] = [];
    for (const file of files()) {
      if (
        !file.endsWith(".md") &&
        !CODE.test(file) &&
        !/\.(sh|sql)$/.test(file) &&
        file !== ".ci/run"
      )
        continue;
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const [line, comment] of comments(file, text)) {
        for (const token of pathTokens(comment)) {
          if (!exists(token) && !isOutput(token)) missing.push(`${file}:${line} names ${token}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

// Syntax highlighting for code blocks, loaded with import() the first time a finished code
// block is on screen, so the chat's first load carries none of it. Shiki with its JavaScript
// regex engine (no WebAssembly), one grammar per language on demand, light and dark colours
// as CSS variables (--shiki-light / --shiki-dark) that the page's colour scheme picks from.
import type { LanguageRegistration } from "shiki";
import { createHighlighterCore, type HighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";

type GrammarModule = { default: LanguageRegistration[] };

const GRAMMARS: Record<string, () => Promise<GrammarModule>> = {
  typescript: () => import("@shikijs/langs/typescript"),
  tsx: () => import("@shikijs/langs/tsx"),
  javascript: () => import("@shikijs/langs/javascript"),
  jsx: () => import("@shikijs/langs/jsx"),
  json: () => import("@shikijs/langs/json"),
  jsonc: () => import("@shikijs/langs/jsonc"),
  shellscript: () => import("@shikijs/langs/shellscript"),
  python: () => import("@shikijs/langs/python"),
  go: () => import("@shikijs/langs/go"),
  rust: () => import("@shikijs/langs/rust"),
  java: () => import("@shikijs/langs/java"),
  kotlin: () => import("@shikijs/langs/kotlin"),
  swift: () => import("@shikijs/langs/swift"),
  c: () => import("@shikijs/langs/c"),
  cpp: () => import("@shikijs/langs/cpp"),
  csharp: () => import("@shikijs/langs/csharp"),
  ruby: () => import("@shikijs/langs/ruby"),
  sql: () => import("@shikijs/langs/sql"),
  html: () => import("@shikijs/langs/html"),
  css: () => import("@shikijs/langs/css"),
  yaml: () => import("@shikijs/langs/yaml"),
  toml: () => import("@shikijs/langs/toml"),
  xml: () => import("@shikijs/langs/xml"),
  diff: () => import("@shikijs/langs/diff"),
  dockerfile: () => import("@shikijs/langs/dockerfile"),
};

const ALIASES: Record<string, string> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  sh: "shellscript",
  bash: "shellscript",
  shell: "shellscript",
  zsh: "shellscript",
  console: "shellscript",
  py: "python",
  golang: "go",
  rs: "rust",
  kt: "kotlin",
  "c++": "cpp",
  cs: "csharp",
  "c#": "csharp",
  rb: "ruby",
  yml: "yaml",
  docker: "dockerfile",
  htm: "html",
  svg: "xml",
  patch: "diff",
  json5: "jsonc",
};

/** The grammar name for a fence's language tag, or null when we have none for it. */
export function grammarFor(tag: string | undefined): string | null {
  const name = (tag ?? "").trim().toLowerCase().split(/\s+/)[0] ?? "";
  const resolved = ALIASES[name] ?? name;
  return resolved in GRAMMARS ? resolved : null;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loading = new Map<string, Promise<void>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import("@shikijs/themes/github-light"), import("@shikijs/themes/github-dark")],
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighter;
}

async function ensureGrammar(core: HighlighterCore, grammar: string): Promise<void> {
  if (core.getLoadedLanguages().includes(grammar)) return;
  const load = GRAMMARS[grammar];
  if (!load) return;
  let pending = loading.get(grammar);
  if (!pending) {
    pending = load().then((module) => core.loadLanguage(module.default));
    loading.set(grammar, pending);
  }
  await pending;
}

/** The code as highlighted HTML (shiki escapes the code), or null for an unknown language. */
export async function highlightCode(code: string, tag: string | undefined): Promise<string | null> {
  const grammar = grammarFor(tag);
  if (!grammar) return null;
  const core = await getHighlighter();
  await ensureGrammar(core, grammar);
  return core.codeToHtml(code, {
    lang: grammar,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
    // Shiki gives up on a line after 500 ms by default and leaves its rest one colour. The first
    // block of a language pays for compiling the grammar's patterns, which a busy phone or
    // laptop can take longer than that for: its light colours came out all comment-grey. Only
    // a pathological line should be cut short.
    tokenizeTimeLimit: 5000,
  });
}

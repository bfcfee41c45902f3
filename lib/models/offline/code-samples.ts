/**
 * Small, plausible code blocks for the offline model, one template per language, named after
 * the user's keywords. They are honest starting points, not real solutions.
 */
import type { CodeLanguage } from "./words";

export interface CodeSampleInput {
  language: CodeLanguage;
  /** camelCase identifier derived from the request. */
  identifier: string;
  /** Short description used in the leading comment. */
  topic: string;
  /** A keyword to mention in the "replace me" comment. */
  keyword: string;
}

function snake(identifier: string): string {
  return identifier.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function pascal(identifier: string): string {
  return identifier.charAt(0).toUpperCase() + identifier.slice(1);
}

/** Returns a fenced markdown code block. */
export function codeSample({ language, identifier, topic, keyword }: CodeSampleInput): string {
  const fn = identifier;
  const lines: Record<CodeLanguage, string[]> = {
    ts: [
      `/** ${topic}: a starting point to adapt. */`,
      `export function ${fn}(input: string): string {`,
      "  const value = input.trim();",
      "  if (value.length === 0) {",
      `    throw new Error("${fn}: input must not be empty");`,
      "  }",
      `  // Replace this with the real logic for ${keyword}.`,
      "  return value;",
      "}",
      "",
      `console.log(${fn}("example"));`,
    ],
    js: [
      `// ${topic}: a starting point to adapt.`,
      `export function ${fn}(input) {`,
      "  const value = String(input).trim();",
      "  if (!value) {",
      `    throw new Error("${fn}: input must not be empty");`,
      "  }",
      `  // Replace this with the real logic for ${keyword}.`,
      "  return value;",
      "}",
      "",
      `console.log(${fn}("example"));`,
    ],
    python: [
      `def ${snake(fn)}(value: str) -> str:`,
      `    """${topic}: a starting point to adapt."""`,
      "    value = value.strip()",
      "    if not value:",
      '        raise ValueError("value must not be empty")',
      `    # Replace this with the real logic for ${keyword}.`,
      "    return value",
      "",
      "",
      'if __name__ == "__main__":',
      `    print(${snake(fn)}("example"))`,
    ],
    sql: [
      `-- ${topic}`,
      "SELECT id, name, created_at",
      `FROM ${snake(fn)}`,
      "WHERE created_at >= NOW() - INTERVAL '7 days'",
      "ORDER BY created_at DESC",
      "LIMIT 20;",
    ],
    bash: [
      "#!/usr/bin/env bash",
      "set -euo pipefail",
      "",
      `# ${topic}`,
      `${snake(fn)}() {`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not JS.
      '  local target="${1:-.}"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not JS.
      '  echo "Working on ${target}…"',
      `  # Replace this with the real steps for ${keyword}.`,
      "}",
      "",
      `${snake(fn)} "$@"`,
    ],
    css: [
      `/* ${topic} */`,
      ".container {",
      "  display: grid;",
      "  place-items: center;",
      "  min-height: 100dvh;",
      "  gap: 1rem;",
      "}",
    ],
    go: [
      "package main",
      "",
      'import (\n\t"fmt"\n\t"strings"\n)',
      "",
      `// ${pascal(fn)}: ${topic}.`,
      `func ${pascal(fn)}(input string) (string, error) {`,
      "\tvalue := strings.TrimSpace(input)",
      '\tif value == "" {',
      '\t\treturn "", fmt.Errorf("input must not be empty")',
      "\t}",
      "\treturn value, nil",
      "}",
    ],
    rust: [
      `/// ${topic}: a starting point to adapt.`,
      `pub fn ${snake(fn)}(input: &str) -> Result<String, String> {`,
      "    let value = input.trim();",
      "    if value.is_empty() {",
      '        return Err("input must not be empty".into());',
      "    }",
      "    Ok(value.to_string())",
      "}",
    ],
  };
  return `\`\`\`${language === "ts" ? "typescript" : language}\n${lines[language].join("\n")}\n\`\`\``;
}

// docs/api.md lists the closed error vocabulary for API clients: every code with its sentence,
// so a code added to lib/kernel/errors.ts without its row fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";

const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/api.md"), "utf8");

function rows(): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of doc.matchAll(/^\|\s*`([a-z_]+:[a-z_]+)`\s*\|[^|]*\|\s*(.*?)\s*\|\s*$/gm)) {
    found.set(match[1] ?? "", match[2] ?? "");
  }
  return found;
}

describe("docs/api.md", () => {
  it("lists every error code with the sentence a client receives", () => {
    const listed = rows();
    const wrong = Object.entries(ERROR_SENTENCES)
      .filter(([code, sentence]) => listed.get(code) !== sentence)
      .map(([code]) => code);
    expect(wrong).toEqual([]);
  });

  it("lists no code the vocabulary lacks", () => {
    const extra = [...rows().keys()].filter((code) => !Object.hasOwn(ERROR_SENTENCES, code));
    expect(extra).toEqual([]);
  });
});

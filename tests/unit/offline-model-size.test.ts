// The offline model stays a small test double: lib/models/offline-model.ts and lib/models/offline/
// together hold at most 1,200 lines outside their tests, counted as `wc -l` counts them. Domain
// logic it might grow belongs to the domain's registered answer (docs/offline-model.md).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LIMIT = 1_200;

function sourceFiles(): string[] {
  const folder = path.join(ROOT, "lib/models/offline");
  const nested = readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => path.join(folder, name));
  return [path.join(ROOT, "lib/models/offline-model.ts"), ...nested];
}

const lineCount = (file: string) => readFileSync(file, "utf8").split("\n").length - 1;

describe("the offline model's size", () => {
  it(`is at most ${LIMIT} lines outside its tests`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(1);
    const counts = files.map((file) => `${path.relative(ROOT, file)}: ${lineCount(file)}`);
    const total = files.reduce((sum, file) => sum + lineCount(file), 0);
    expect(total, counts.join("\n")).toBeLessThanOrEqual(LIMIT);
  });
});

// The turn engine may read workstream rows, but the workstreams domain never imports the engine:
// what a turn means to a workstream is connected in one place at start-up (./wiring.ts). The one
// exception is the turn states' vocabulary (lib/turns/turn-state.ts), a leaf that imports nothing
// of either domain, so the workstream summary's running flag uses the same sets.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function importsOf(folder: string): Array<{ file: string; from: string }> {
  const root = path.resolve(import.meta.dirname, "..", folder);
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .flatMap((file) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(/from\s+"([^"]+)"/g)].map(
        (match) => ({ file: `${folder}/${file}`, from: match[1] ?? "" }),
      ),
    );
}

describe("domain imports", () => {
  it("H2 lib/workstreams imports nothing from lib/turns but the turn states", () => {
    const intoTurns = importsOf("workstreams").filter(
      ({ from }) =>
        /^(@\/lib\/turns|\.\.\/turns)(\/|$)/.test(from) && from !== "@/lib/turns/turn-state",
    );
    expect(intoTurns).toEqual([]);
  });

  it("H2 the turn states import nothing of either domain", () => {
    const stateImports = importsOf("turns")
      .filter(({ file }) => file === "turns/turn-state.ts")
      .map(({ from }) => from);
    expect(stateImports.filter((from) => /^(@\/lib\/|\.)/.test(from))).toEqual([]);
  });
});

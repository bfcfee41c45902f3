// The repository read against its house map (./house-map.ts): value imports between folders, not
// `import type`, static and `import()` alike.

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALLOWED_FOR_NOW, OUTBOX_WRITERS_FOR_NOW, PARTS, type PartName } from "./house-map";
import {
  fileEdges,
  folderCycles,
  folderEdges,
  folderOf,
  REPO_ROOT,
  reachableFiles,
  sourceFiles,
  valueSpecifiers,
} from "./import-graph";

const edges = fileEdges();
const graph = folderEdges(edges);
const partOf = new Map<string, PartName>(
  (Object.entries(PARTS) as Array<[PartName, (typeof PARTS)[PartName]]>).flatMap(([name, part]) =>
    part.folders.map((folder) => [folder, name] as const),
  ),
);
const allowedForNow = new Set(ALLOWED_FOR_NOW.map(({ from, to }) => `${from} -> ${to}`));

function arrows(): Array<{ from: string; to: string; example: string }> {
  return [...graph].flatMap(([from, targets]) =>
    [...targets].map(([to, edge]) => ({ from, to, example: `${edge.from} imports ${edge.to}` })),
  );
}

describe("the import graph reader", () => {
  it("counts value imports, static and dynamic, and leaves type-only ones out", () => {
    const source = [
      'import type { A } from "@/lib/a";',
      'import { type B, type C } from "@/lib/b";',
      'export type { D } from "@/lib/d";',
      'import { type E, f } from "@/lib/e";',
      'import g from "./g";',
      'import "@/lib/side-effect";',
      'export { h } from "@/lib/h";',
      'const later = await import("@/lib/later");',
      '// import { x } from "@/lib/commented";',
    ].join("\n");
    expect(valueSpecifiers(source).sort()).toEqual(
      ["@/lib/e", "./g", "@/lib/side-effect", "@/lib/h", "@/lib/later"].sort(),
    );
  });

  it("finds a cycle between folders and none in a chain", () => {
    const edge = (from: string, to: string) => ({ from, to, specifier: to });
    const cyclic = folderEdges([
      edge("lib/a/x.ts", "lib/b/y.ts"),
      edge("lib/b/y.ts", "lib/a/z.ts"),
    ]);
    expect(folderCycles(cyclic)).toEqual([["lib/a", "lib/b"]]);
    const chain = folderEdges([edge("lib/a/x.ts", "lib/b/y.ts"), edge("lib/b/y.ts", "lib/c/z.ts")]);
    expect(folderCycles(chain)).toEqual([]);
  });
});

describe("the house map", () => {
  it("places every source folder in exactly one part", () => {
    // The reader found the repository (an empty graph would pass everything below).
    expect(edges.length).toBeGreaterThan(500);
    const folders = [...new Set(sourceFiles().map(folderOf))].sort();
    expect(folders.filter((folder) => !partOf.has(folder))).toEqual([]);
    const placed = Object.values(PARTS).flatMap((part) => part.folders);
    expect(placed.length).toBe(new Set(placed).size);
  });

  it("every arrow between folders is one the map allows", () => {
    const forbidden = arrows().filter(({ from, to }) => {
      const fromPart = partOf.get(from);
      const toPart = partOf.get(to);
      if (!fromPart || !toPart) return true;
      return !PARTS[fromPart].mayImport.includes(toPart) && !allowedForNow.has(`${from} -> ${to}`);
    });
    expect(forbidden).toEqual([]);
  });

  it("nothing in lib/ imports inngest/, root/, app/ or components/", () => {
    const outward = arrows().filter(
      ({ from, to }) => from.startsWith("lib") && /^(inngest|root|app|components)(\/|$)/.test(to),
    );
    expect(outward).toEqual([]);
  });

  it("has no folder cycle once the arrows allowed for now are set aside", () => {
    const rest = new Map(
      [...graph].map(([from, targets]) => [
        from,
        new Map([...targets].filter(([to]) => !allowedForNow.has(`${from} -> ${to}`))),
      ]),
    );
    expect(folderCycles(rest)).toEqual([]);
  });

  it("each arrow allowed for now still exists and names the issue that removes it", () => {
    const present = new Set(arrows().map(({ from, to }) => `${from} -> ${to}`));
    for (const entry of ALLOWED_FOR_NOW) {
      expect(present.has(`${entry.from} -> ${entry.to}`), `${entry.from} -> ${entry.to}`).toBe(
        true,
      );
      expect(entry.removedBy).toMatch(/^issue \d+: /);
    }
  });

  it("the auth module loads at most 40 files", () => {
    expect(reachableFiles(edges, "lib/auth/auth.ts").size).toBeLessThanOrEqual(40);
  });
});

describe("domain imports", () => {
  it("H2 lib/workstreams imports nothing from lib/turns (the turn states are the schema's)", () => {
    const intoTurns = edges.filter(
      ({ from, to }) => from.startsWith("lib/workstreams/") && to.startsWith("lib/turns/"),
    );
    expect(intoTurns).toEqual([]);
  });

  it("H2 the turn states, beside the turns table, import nothing of any domain", () => {
    const stateImports = edges.filter(({ from }) => from === "db/schema/turns.ts");
    expect(stateImports.filter(({ to }) => to.startsWith("lib/"))).toEqual([]);
  });
});

describe("the jobs port", () => {
  // A write in SQL or through drizzle; reading the outbox (the inspector) is anyone's.
  const WRITE =
    /(insert\s+into|update|delete\s+from)\s+"job_events"|\.(insert|update|delete)\(jobEvents\)/;

  it("is the only writer of the outbox but for the writers listed for now", () => {
    const writers = sourceFiles()
      .filter((file) => WRITE.test(readFileSync(path.join(REPO_ROOT, file), "utf8")))
      .filter((file) => !file.startsWith("lib/jobs/"));
    expect(writers.sort()).toEqual(OUTBOX_WRITERS_FOR_NOW.map(({ file }) => file).sort());
    for (const { removedBy } of OUTBOX_WRITERS_FOR_NOW) expect(removedBy).toMatch(/^issue \d+: /);
  });
});

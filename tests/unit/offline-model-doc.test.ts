import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OFFLINE_TRIGGERS } from "@/lib/models/offline-model";
import { DEMO_REQUESTS } from "@/root/offline-demo-requests";

const doc = readFileSync(path.join(import.meta.dirname, "../../docs/offline-model.md"), "utf8");

/** The first column of the table under `heading`, without its backticks. */
function firstColumn(heading: string): string[] {
  const section = doc.split(`## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => /^\| `(.+?)` *\|/.exec(line)?.[1] ?? "");
}

describe("docs/offline-model.md", () => {
  it("lists every trigger of the offline model, in its order", () => {
    expect(firstColumn("Triggers")).toEqual(OFFLINE_TRIGGERS.map((entry) => entry.trigger));
  });

  it("lists every plain request of the demo, in its order", () => {
    expect(firstColumn("Plain requests of the demo")).toEqual(
      DEMO_REQUESTS.map((entry) => entry.trigger),
    );
  });
});

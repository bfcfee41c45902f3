// The turn inspector's server time (section "inspector"): bench/inspector.ts in a child process,
// on its own embedded database (a turn with 1,000 events among 2,000 others), so nothing the
// app servers left behind weighs on it.
import path from "node:path";
import { runScript } from "../lib/script";

type ViewerTiming = { runs: number; p50Ms: number; p95Ms: number; maxMs: number; bytes: number };

export type InspectorResult = {
  events: number;
  tools: number;
  otherTurns: number;
  results: Record<string, ViewerTiming>;
};

export async function runInspector({
  quick,
  workDir,
  log,
}: {
  quick: boolean;
  workDir: string;
  log: (line: string) => void;
}): Promise<InspectorResult> {
  log("inspector: a turn with 1,000 events among 2,000 others (PGlite)");
  return runScript<InspectorResult>(
    "inspector.ts",
    [`--runs=${quick ? 50 : 200}`, `--other-turns=${quick ? 200 : 2_000}`],
    path.join(workDir, "inspector.json"),
  );
}

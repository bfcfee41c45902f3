// The turn inspector's server time (section "inspector"): bench/inspector.ts in a child process,
// on its own embedded database (a turn with 1,000 events among 2,000 others), so nothing the
// app servers left behind weighs on it.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO } from "../lib/app-build";

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
  const json = path.join(workDir, "inspector.json");
  rmSync(json, { force: true });
  log("inspector: a turn with 1,000 events among 2,000 others (PGlite)");
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "bench/inspector.ts",
      `--runs=${quick ? 50 : 200}`,
      `--other-turns=${quick ? 200 : 2_000}`,
      `--json=${json}`,
    ],
    { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] },
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`bench/inspector.ts exited with ${code}`);
  return JSON.parse(readFileSync(json, "utf8")) as InspectorResult;
}

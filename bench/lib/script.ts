// The standalone bench scripts (bench/retrieval.ts, bench/inspector.ts, bench/compaction.ts):
// their `--name=value` flags, and running one in a child process that writes its result as JSON,
// so a scenario's memory and timings are its own and not the bench runner's.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { REPO } from "./app-build";

/** `--name=value` and bare `--name` (as "true") flags. */
export function parseFlags(argv: readonly string[]): Map<string, string> {
  return new Map(
    argv.map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key ?? "", value ?? "true"] as const;
    }),
  );
}

/** Runs `bench/<script>` with `args` plus `--json=<json>` and reads what it wrote there. */
export async function runScript<T>(script: string, args: string[], json: string): Promise<T> {
  rmSync(json, { force: true });
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", `bench/${script}`, ...args, `--json=${json}`],
    { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] },
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`bench/${script} exited with ${code}`);
  return JSON.parse(readFileSync(json, "utf8")) as T;
}

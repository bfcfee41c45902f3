// `node --conditions=react-server --import tsx bench/alloc.ts [--db=pglite|postgres] [--turns=N]
// [--history=N] [--build=auto|reuse]`: where a plain turn allocates (with `--history=N`: where N
// history-page GETs allocate instead, after the same warm-up). Runs the benchmark's plain turns (a 7-word
// answer at model delay 0, one follower) on `next start` with V8's sampling heap profiler on,
// counting objects the collector has already freed too, and prints KiB allocated per turn by
// package, by function, and by the nearest caller outside Node's internals and builtins. A CPU
// profile shows where time goes; this shows the garbage behind the collector's share of it (a
// library copying a large object per call shows here first). Minified app frames are printed as
// they are; the packages' own frames keep their names.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO } from "./lib/app-build";
import { armDeadline, installExitHandlers, killAllNow, onExit } from "./lib/children";
import { closeIdleSockets } from "./lib/http";
import { startInspectedApp } from "./lib/inspected-app";
import { openInspector } from "./lib/inspector";
import { zeroDelayMessages } from "./lib/model-ttft";
import { parseFlags } from "./lib/script";
import { runTurn } from "./lib/turns";
import { signUpUsers } from "./lib/users";

const flags = parseFlags(process.argv.slice(2));
const db = flags.get("db") === "postgres" ? "postgres" : "pglite";
const turns = Number(flags.get("turns") ?? 300);
const buildMode = flags.get("build") === "reuse" ? "reuse" : "auto";
const pgUrl = flags.get("pg-url") ?? "postgres://postgres@127.0.0.1:54329/postgres";
const historyRequests = Number(flags.get("history") ?? 0);
const WARM_UP_TURNS = 100;

installExitHandlers();
armDeadline(20 * 60_000);
const log = (line: string) => console.log(`[alloc] ${line}`);
const workDir = path.join(REPO, ".data", "bench", `alloc-${process.pid}`);
mkdirSync(workDir, { recursive: true });
onExit(() => rmSync(workDir, { recursive: true, force: true }));

type SampledNode = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
};

function frameName(frame: SampledNode["callFrame"]): string {
  const file = frame.url.replace(/.*node_modules\//, "").replace(/.*\.next\//, ".next/");
  return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
}

function packageOf(url: string): string {
  const named = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (named) return named;
  if (url.includes("/.next/")) return "app bundle";
  if (url.startsWith("node:")) return url;
  return url ? "other" : "(builtins: arrays, promises, strings…)";
}

/** A frame of Node's internals or a builtin: its allocations go to the caller above it. */
const internal = (name: string) => / node:/.test(name) || / :0$/.test(name);

function tally(head: SampledNode) {
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byCaller = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, size: number) =>
    map.set(key, (map.get(key) ?? 0) + size);
  const walk = (node: SampledNode, callers: string[]) => {
    const name = frameName(node.callFrame);
    const stack = [...callers, name];
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(byPackage, packageOf(node.callFrame.url), node.selfSize);
      add(byFunction, name, node.selfSize);
      add(byCaller, stack.findLast((frame) => !internal(frame)) ?? "(none)", node.selfSize);
    }
    for (const child of node.children) walk(child, stack);
  };
  walk(head, []);
  return { total, byPackage, byFunction, byCaller };
}

function print(title: string, map: Map<string, number>, rows: number, units: number, unit: string) {
  console.log(`\n${title}`);
  for (const [key, size] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(
      `${(size / units / 1024).toFixed(1).padStart(9)} KiB/${unit}  ${key.slice(0, 150)}`,
    );
  }
}

async function main() {
  const { server, stop } = await startInspectedApp({
    db,
    build: buildMode,
    pgUrl,
    workDir,
    name: "alloc",
    log,
  });
  try {
    const session = await openInspector(server.output);
    const users = await signUpUsers(server.url, 10, "alloc-", 1);
    const texts = await zeroDelayMessages(20, (i) => `Alloc turn ${i}: a short answer. [words:7]`);
    const target = { server, users };
    const run = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await runTurn(target, i % users.length, texts[i % texts.length] ?? "", 60_000, {
          follower: true,
        });
      }
    };
    await run(WARM_UP_TURNS);
    await session.send("HeapProfiler.enable");
    await session.send("HeapProfiler.startSampling", {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    if (historyRequests > 0) {
      for (let i = 0; i < historyRequests; i++) {
        const user = users[i % users.length];
        if (!user) break;
        const page = await user.client.timedGet(
          `/api/workstreams/${encodeURIComponent(user.workstreamId)}/messages?take=6`,
        );
        if (page.status !== 200) throw new Error(`history page: HTTP ${page.status}`);
      }
    } else {
      await run(turns);
      // The last turns' post-turn jobs run within about a second.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    const reply = (await session.send("HeapProfiler.stopSampling")) as unknown as {
      result: { profile: { head: SampledNode } };
    };
    session.close();
    const { total, byPackage, byFunction, byCaller } = tally(reply.result.profile.head);
    const units = historyRequests > 0 ? historyRequests : turns;
    const unit = historyRequests > 0 ? "request" : "turn";
    console.log(
      historyRequests > 0
        ? `\n${db}: ${(total / units / 1024).toFixed(0)} KiB allocated per history-page GET (${units} requests)`
        : `\n${db}: ${(total / units / 1024).toFixed(0)} KiB allocated per plain turn (${units} turns, their post-turn jobs included)`,
    );
    print("By package:", byPackage, 20, units, unit);
    print("By function:", byFunction, 30, units, unit);
    print("By nearest caller outside Node's internals and builtins:", byCaller, 30, units, unit);
  } finally {
    await stop();
  }
}

try {
  await main();
} finally {
  closeIdleSockets();
  killAllNow();
}
process.exit(0);

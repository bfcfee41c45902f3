// The production build the benchmark serves with `next start`. Others edit and rebuild the repo
// while a benchmark runs, so the servers never run from the repo's own `.next`: either a fresh
// `.next` is copied (when its BUILD_ID is newer than every source file and no build is running),
// or the sources are copied and built privately. The copy is the tree as git sees it (tracked and
// untracked files, not ignored ones), so a commit builds as its own checkout does and no list of
// folders has to follow the repo. Both live in .data/bench/app (git-ignored, inside the repo so
// Turbopack's root and node_modules resolve as usual) and are reused while the sources do not
// change. A checkout nobody else touches (bench/ab.sh's base worktree) is built and served where it
// is instead (`in-place`).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { exited, spawnTracked, stopChild } from "./children";

export const REPO = path.resolve(import.meta.dirname, "../..");
const APP_DIR = path.join(REPO, ".data", "bench", "app");
// Builds and copies are made here and swapped in only when complete: an interrupted build never
// destroys the last good one.
const STAGING_DIR = path.join(REPO, ".data", "bench", "app-staging");
const NEXT_BIN = path.join(REPO, "node_modules", "next", "dist", "bin", "next");
const IN_PLACE_STAMP = path.join(REPO, ".next", "bench-stamp.json");

export type AppBuild = {
  dir: string;
  buildId: string;
  source: "snapshot" | "shadow-build" | "stale-snapshot" | "in-place";
  fingerprint: string;
  buildSeconds?: number;
  warning?: string;
};

/** The repo's files as git sees them: tracked and untracked, without the ignored ones. */
function treeFiles(): string[] {
  const out = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: REPO,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  // --cached also lists tracked files deleted from the working tree.
  return [...new Set(out.split("\0").filter(Boolean))]
    .filter((file) => existsSync(path.join(REPO, file)))
    .sort();
}

// Changes here cannot reach the build, so they do not make a build stale. Leaving a folder off
// this list costs a rebuild, never a stale build.
const NOT_BUILT = /^(tests|e2e|docs|bench|scripts|\.ci)\/|\.md$|\.(test|spec)\.[cm]?[tj]sx?$/;

/** The files a build is made from, relative to the repo. */
function sourceFiles(): string[] {
  return treeFiles().filter((file) => !NOT_BUILT.test(file));
}

/** Content hash of the build inputs, and the newest modification time among them. */
function fingerprintSources(): { fingerprint: string; newestMs: number } {
  const hash = createHash("sha1");
  let newestMs = 0;
  for (const file of sourceFiles()) {
    const full = path.join(REPO, file);
    newestMs = Math.max(newestMs, statSync(full).mtimeMs);
    hash.update(file);
    hash.update(readFileSync(full));
  }
  return { fingerprint: hash.digest("hex").slice(0, 16), newestMs };
}

/** Another `next build` running on this machine (it would rewrite `.next` under us). */
function buildRunning(): boolean {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      if (/next-build|next\S* build/.test(cmd) && !cmd.includes(APP_DIR)) return true;
    } catch {
      // gone
    }
  }
  return false;
}

function swapIn(): void {
  rmSync(APP_DIR, { recursive: true, force: true });
  renameSync(STAGING_DIR, APP_DIR);
}

function readStamp(): { fingerprint?: string; buildId?: string; source?: string } {
  try {
    return JSON.parse(readFileSync(path.join(APP_DIR, "bench-stamp.json"), "utf8"));
  } catch {
    return {};
  }
}

/**
 * The tree as git sees it, copied to `target`: what `next build` compiles and what `next start`
 * reads besides `.next` (next.config.ts and the files it imports, db/migrations, public/).
 */
function copyTree(target: string): void {
  for (const file of treeFiles()) {
    // No lockfile in the copy: Turbopack's root stays the repo, so node_modules resolves there.
    if (file === "package-lock.json") continue;
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(target, file));
  }
}

function snapshot(target: string): string | null {
  const nextDir = path.join(REPO, ".next");
  const before = readFileSync(path.join(nextDir, "BUILD_ID"), "utf8").trim();
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(nextDir, path.join(target, ".next"), {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(nextDir, src);
      return !(
        rel === "cache" ||
        rel === "dev" ||
        rel.startsWith(`cache${path.sep}`) ||
        rel.startsWith(`dev${path.sep}`) ||
        rel === "trace"
      );
    },
  });
  copyTree(target);
  const after = existsSync(path.join(nextDir, "BUILD_ID"))
    ? readFileSync(path.join(nextDir, "BUILD_ID"), "utf8").trim()
    : "";
  if (after !== before || buildRunning()) return null;
  return before;
}

/** `next build` in `dir`; throws with the end of its output when it fails. */
async function nextBuild(dir: string): Promise<{ buildId: string; seconds: number }> {
  const started = Date.now();
  const child = spawnTracked(process.execPath, [NEXT_BIN, "build"], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-100_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const timer = setTimeout(() => void stopChild(child, 2_000), 10 * 60_000);
  await exited(child);
  clearTimeout(timer);
  const seconds = (Date.now() - started) / 1000;
  if (child.exitCode !== 0) {
    const tail = output.trim().split("\n").slice(-25).join("\n");
    throw new Error(`next build failed (exit ${child.exitCode ?? child.signalCode}):\n${tail}`);
  }
  return { buildId: readFileSync(path.join(dir, ".next", "BUILD_ID"), "utf8").trim(), seconds };
}

async function shadowBuild(
  target: string,
  log: (line: string) => void,
): Promise<{ buildId: string; seconds: number }> {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  copyTree(target);
  log(`building a private copy of the sources in ${path.relative(REPO, target)} (next build)…`);
  return nextBuild(target);
}

/**
 * The repo's own `.next`, built where the repo is unless a build of these very sources is there
 * already. Only for a checkout nobody else edits or builds.
 */
async function inPlaceBuild(fingerprint: string, log: (line: string) => void): Promise<AppBuild> {
  let stamp: { fingerprint?: string; buildId?: string } = {};
  try {
    stamp = JSON.parse(readFileSync(IN_PLACE_STAMP, "utf8"));
  } catch {
    // not built here yet
  }
  if (stamp.fingerprint === fingerprint && stamp.buildId) {
    log(`reusing the build in ${REPO}/.next (sources unchanged)`);
    return { dir: REPO, buildId: stamp.buildId, source: "in-place", fingerprint };
  }
  log(`building ${REPO} where it is (next build)…`);
  const { buildId, seconds } = await nextBuild(REPO);
  writeFileSync(IN_PLACE_STAMP, JSON.stringify({ fingerprint, buildId }));
  log(`built in ${seconds.toFixed(0)} s (BUILD_ID ${buildId})`);
  return { dir: REPO, buildId, source: "in-place", fingerprint, buildSeconds: seconds };
}

export async function prepareApp(
  mode: "auto" | "snapshot" | "shadow" | "reuse" | "in-place",
  log: (line: string) => void,
): Promise<AppBuild> {
  const { fingerprint, newestMs } = fingerprintSources();
  if (mode === "in-place") return inPlaceBuild(fingerprint, log);
  const stamp = readStamp();
  if (mode === "reuse") {
    if (!stamp.buildId || !existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) {
      throw new Error("--build=reuse: there is no earlier bench build in .data/bench/app");
    }
    const same = stamp.fingerprint === fingerprint;
    log(
      `reusing the build in .data/bench/app${same ? "" : " (the sources changed since it was built)"}`,
    );
    return {
      dir: APP_DIR,
      buildId: stamp.buildId,
      source: stamp.source === "shadow-build" ? "shadow-build" : "snapshot",
      fingerprint: stamp.fingerprint ?? "?",
      ...(same
        ? {}
        : { warning: "--build=reuse: served an earlier build; the sources have changed since" }),
    };
  }
  if (stamp.fingerprint === fingerprint && stamp.buildId && mode === "auto") {
    log(`reusing the build in .data/bench/app (${stamp.source}, sources unchanged)`);
    return {
      dir: APP_DIR,
      buildId: stamp.buildId,
      source: stamp.source === "shadow-build" ? "shadow-build" : "snapshot",
      fingerprint,
    };
  }
  const saveStamp = (build: AppBuild) => {
    writeFileSync(
      path.join(APP_DIR, "bench-stamp.json"),
      JSON.stringify({ fingerprint, buildId: build.buildId, source: build.source }),
    );
    return build;
  };

  const repoBuildId = path.join(REPO, ".next", "BUILD_ID");
  const fresh = existsSync(repoBuildId) && statSync(repoBuildId).mtimeMs > newestMs;
  if (mode === "snapshot" || (mode === "auto" && fresh)) {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (buildRunning()) {
        log("another next build is running; waiting for it…");
        const until = Date.now() + 5 * 60_000;
        while (buildRunning() && Date.now() < until) await new Promise((r) => setTimeout(r, 2_000));
      }
      if (!existsSync(repoBuildId)) break;
      const buildId = snapshot(STAGING_DIR);
      if (buildId) {
        swapIn();
        const stillFresh = statSync(repoBuildId).mtimeMs > newestMs;
        log(`copied the repo's .next (BUILD_ID ${buildId}) to .data/bench/app`);
        return saveStamp({
          dir: APP_DIR,
          buildId,
          source: "snapshot",
          fingerprint,
          ...(stillFresh ? {} : { warning: "the sources changed while copying" }),
        });
      }
    }
    if (mode === "snapshot") throw new Error("could not copy a consistent .next");
  }

  let lastError: unknown;
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const { buildId, seconds } = await shadowBuild(STAGING_DIR, log);
      swapIn();
      log(`built in ${seconds.toFixed(0)} s (BUILD_ID ${buildId})`);
      return saveStamp({
        dir: APP_DIR,
        buildId,
        source: "shadow-build",
        fingerprint,
        buildSeconds: seconds,
      });
    } catch (error) {
      lastError = error;
      log(`build attempt ${attempt} failed: ${error instanceof Error ? error.message : error}`);
      if (attempt === 1) await new Promise((r) => setTimeout(r, 15_000));
    }
  }
  if (existsSync(repoBuildId)) {
    const buildId = snapshot(STAGING_DIR);
    if (buildId) {
      swapIn();
      const warning = `next build of the current sources failed; serving the repo's older .next (BUILD_ID ${buildId}). ${String(lastError).slice(0, 500)}`;
      log(`WARNING: ${warning}`);
      return { dir: APP_DIR, buildId, source: "stale-snapshot", fingerprint, warning };
    }
  }
  throw lastError;
}

export { NEXT_BIN };

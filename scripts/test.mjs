// `npm test`: lint, typecheck, unit, integration (PGlite, and Postgres when TEST_DATABASE_URL is
// set), then a production build and the Playwright end-to-end tests, and the browser test against
// `next dev`. Prints each runner's summary, the time of each phase, and one closing
// "N passed, N failed" line.
//
// After lint come two lanes: the unit and integration tests (then the test against `next dev`),
// and the type check, the production build and the Playwright run against it. They run one after
// the other. TEST_LANES=1 runs them side by side, for machines with cores to spare: on a
// two-core machine both lanes' runners use two workers each, and the child-process tests and
// Playwright then time out (measured: processes, telemetry export and a quarter of the browser
// tests failed at their timeouts). Lines of a phase that runs beside another carry its name.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

// Child tools start with `#!/usr/bin/env node`: make that the project's Node 24, not the system's.
process.env.PATH = `${path.resolve("node_modules/.bin")}${path.delimiter}${process.env.PATH}`;
const reports = path.resolve(".data/test-reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const only = process.argv.slice(2);
const serial = !process.env.TEST_LANES;
const totals = { passed: 0, failed: 0, skipped: 0 };
// The names of failing tests are repeated at the very end, because CI often keeps only the tail.
const failures = [];
const phases = [];
let failedPhase = false;
// True while the lanes run side by side: a phase's lines then carry its name.
let sideBySide = false;
const started = Date.now();

/** Copies a child's output to ours line by line, each line marked with the phase's name. */
function prefixLines(stream, target, name) {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) target.write(`[${name}] ${line}\n`);
  });
  stream.on("end", () => {
    if (rest) target.write(`[${name}] ${rest}\n`);
  });
}

/** Runs one phase; resolves to whether it passed. Skipped (true) when not among the chosen ones. */
async function run(name, command, args, env = {}) {
  if (only.length && !only.includes(name)) return true;
  const phaseStarted = Date.now();
  console.log(`\n== ${name}: ${[command, ...args].join(" ")}`);
  const shared = sideBySide;
  const child = spawn(command, args, {
    stdio: shared ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, ...env },
  });
  if (shared) {
    prefixLines(child.stdout, process.stdout, name);
    prefixLines(child.stderr, process.stderr, name);
  }
  const [status, signal] = await new Promise((resolve) => {
    child.once("error", (error) => {
      console.error(`== ${name}: ${error.message}`);
      resolve([null, "spawn error"]);
    });
    child.once("close", (code, sig) => resolve([code, sig]));
  });
  const seconds = ((Date.now() - phaseStarted) / 1000).toFixed(1);
  const ok = status === 0;
  const at = ((Date.now() - started) / 1000).toFixed(0);
  phases.push({ name, seconds, ok, at });
  console.log(`== ${name}: ${ok ? "ok" : `FAILED (exit ${status ?? signal})`} in ${seconds}s`);
  if (!ok) failedPhase = true;
  return ok;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const file = path.relative(process.cwd(), suite.name);
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) failures.push(`${file} › ${test.fullName}`);
    if (suite.status === "failed" && !failed.length)
      failures.push(`${file} (the file failed to run)`);
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats, suites } = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  totals.failed += stats?.unexpected ?? 0;
  totals.skipped += stats?.skipped ?? 0;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === "unexpected")
          failures.push(`${spec.file} › ${[...titles, spec.title].join(" › ")}`);
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of suites ?? []) visit(suite, []);
}

const bin = (name) => path.resolve("node_modules/.bin", name);

/** Runs the lanes one after another, or side by side under TEST_LANES. */
async function lanes(...all) {
  if (serial) {
    for (const lane of all) await lane();
    return;
  }
  sideBySide = !only.length;
  await Promise.all(all.map((lane) => lane()));
  sideBySide = false;
}

await run("lint", bin("biome"), ["check", "."]);
// `next typegen` writes the route types and Next's validator of page and route exports into
// .next/types, so tsc checks what the build's own type check would.
const typegenPassed = await run("typegen", bin("next"), ["typegen"]);

async function vitest(name) {
  const out = path.join(reports, `${name}.json`);
  await run(name, bin("vitest"), [
    "run",
    "--project",
    name,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
  ]);
  countVitest(out);
}

const wantsE2e =
  (!only.length || only.includes("build") || only.includes("e2e") || only.includes("e2e-dev")) &&
  !process.env.SKIP_E2E;

async function testLane() {
  await vitest("unit");
  await vitest("integration-pglite");
  if (process.env.TEST_DATABASE_URL) await vitest("integration-postgres");
  if (!wantsE2e) return;
  // The app as `npm run dev` serves it, opened at 127.0.0.1: its own config, server, database
  // and output folder (.next/dev), so it never meets the production build or its server.
  const devOut = path.join(reports, "e2e-dev.json");
  await run(
    "e2e-dev",
    bin("playwright"),
    ["test", "-c", "playwright.dev.config.ts", "--reporter=list,json"],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: devOut },
  );
  countPlaywright(devOut);
}

async function buildLane() {
  const typechecked =
    typegenPassed &&
    (await run("typecheck", bin("tsc"), ["--noEmit"])) &&
    (!only.length || only.includes("typecheck"));
  if (!wantsE2e) return;
  // The build would run the same TypeScript check again (about a minute here): skipped only
  // when this run's typecheck phase has just passed.
  const buildEnv = typechecked ? { WORKSTREAMS_BUILD_TYPECHECKED: "1" } : {};
  const built = await run("build", bin("next"), ["build"], buildEnv);
  if (!built || (only.length && !only.includes("e2e"))) return;
  const out = path.join(reports, "e2e.json");
  await run("e2e", bin("playwright"), ["test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  countPlaywright(out);
}

await lanes(testLane, buildLane);

console.log("\n== phases (ended at: seconds since the start)");
for (const phase of phases)
  console.log(
    `   ${phase.ok ? "ok    " : "FAILED"} ${phase.name.padEnd(22)} ${`${phase.seconds}s`.padEnd(9)} ended at ${phase.at}s`,
  );
console.log(`   total ${((Date.now() - started) / 1000).toFixed(1)}s`);
if (failures.length) {
  console.log("\n== failed tests");
  for (const failure of failures) console.log(`   ${failure}`);
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedPhase || totals.failed > 0 ? 1 : 0);

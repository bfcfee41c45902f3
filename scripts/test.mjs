// `npm test`: lint, typecheck, unit, integration (PGlite, and Postgres when TEST_DATABASE_URL is
// set), then a production build and the Playwright end-to-end tests, and the browser test against
// `next dev`. Prints each runner's summary, the time of each phase, and one closing
// "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

// Child tools start with `#!/usr/bin/env node`: make that the project's Node 24, not the system's.
process.env.PATH = `${path.resolve("node_modules/.bin")}${path.delimiter}${process.env.PATH}`;
const reports = path.resolve(".data/test-reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const only = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
// The names of failing tests are repeated at the very end, because CI often keeps only the tail.
const failures = [];
const phases = [];
let failedPhase = false;

function run(name, command, args, env = {}) {
  if (only.length && !only.includes(name)) return true;
  const started = Date.now();
  console.log(`\n== ${name}: ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  phases.push({ name, seconds, ok });
  console.log(
    `== ${name}: ${ok ? "ok" : `FAILED (exit ${result.status ?? result.signal})`} in ${seconds}s`,
  );
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

run("lint", bin("biome"), ["check", "."]);
const typechecked = only.includes("typecheck") || !only.length;
// `next typegen` writes the route types and Next's validator of page and route exports into
// .next/types, so tsc checks what the build's own type check would.
const typecheckPassed =
  run("typegen", bin("next"), ["typegen"]) &&
  run("typecheck", bin("tsc"), ["--noEmit"]) &&
  typechecked;

const vitestProjects = [
  ["unit", "unit"],
  ["integration-pglite", "integration-pglite"],
];
if (process.env.TEST_DATABASE_URL)
  vitestProjects.push(["integration-postgres", "integration-postgres"]);
for (const [name, project] of vitestProjects) {
  const out = path.join(reports, `${name}.json`);
  run(name, bin("vitest"), [
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
  ]);
  countVitest(out);
}

const wantsE2e = !only.length || only.includes("e2e") || only.includes("e2e-dev");
if (wantsE2e && !process.env.SKIP_E2E) {
  // The build would run the same TypeScript check again (about a minute here): skipped only
  // when this run's typecheck phase has just passed.
  const buildEnv = typecheckPassed ? { WORKSTREAMS_BUILD_TYPECHECKED: "1" } : {};
  if (run("build", bin("next"), ["build"], buildEnv)) {
    const out = path.join(reports, "e2e.json");
    run("e2e", bin("playwright"), ["test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    countPlaywright(out);
  }
  // The app as `npm run dev` serves it, opened at 127.0.0.1: its own config, server and database.
  const devOut = path.join(reports, "e2e-dev.json");
  run(
    "e2e-dev",
    bin("playwright"),
    ["test", "-c", "playwright.dev.config.ts", "--reporter=list,json"],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: devOut },
  );
  countPlaywright(devOut);
}

console.log("\n== phases");
for (const phase of phases)
  console.log(`   ${phase.ok ? "ok    " : "FAILED"} ${phase.name.padEnd(22)} ${phase.seconds}s`);
if (failures.length) {
  console.log("\n== failed tests");
  for (const failure of failures) console.log(`   ${failure}`);
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedPhase || totals.failed > 0 ? 1 : 0);

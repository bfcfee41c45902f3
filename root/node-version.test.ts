// The Node.js version check: an old Node stops with one line and a non-zero exit, both when the
// check runs on its own and when Next loads next.config.ts; the project's Node passes.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unsupportedNodeMessage } from "./node-version.cjs";

const CHECK = "root/node-version.cjs";
// The machine's own Node, older than the project's; absent on machines that have none.
const SYSTEM_NODE = "/usr/bin/node";
const systemNodeVersion = existsSync(SYSTEM_NODE)
  ? spawnSync(SYSTEM_NODE, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()
  : "";
const oldNodeAvailable =
  systemNodeVersion !== "" && unsupportedNodeMessage(systemNodeVersion) !== null;
// Where the machine has no older Node, the project's Node is told it is 20.11.1 before anything
// else loads: the check and Next's config loader then meet an old version all the same.
const SIMULATED_OLD = "20.11.1";
const PRETEND_OLD = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "${SIMULATED_OLD}" } });`;
const oldNode = oldNodeAvailable
  ? { node: SYSTEM_NODE, preload: [] as string[], version: systemNodeVersion }
  : {
      node: process.execPath,
      preload: ["--import", `data:text/javascript,${encodeURIComponent(PRETEND_OLD)}`],
      version: SIMULATED_OLD,
    };
// What `next dev`, `next build` and `next start` do first: load next.config.ts.
const LOAD_NEXT_CONFIG = `require("next/dist/server/config").default("phase-development-server", process.cwd()).then(() => console.log("LOADED"))`;

function run(node: string, args: string[]) {
  const result = spawnSync(node, args, { encoding: "utf8", cwd: process.cwd() });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The tests start Node processes, which takes seconds on a loaded machine.
describe("Node.js version check", { timeout: 60_000 }, () => {
  it("9.14 names the version it needs, the one it got and how to start instead", () => {
    expect(unsupportedNodeMessage("20.11.1")).toBe(
      "Workstreams needs Node.js 22 or newer; this is 20.11.1. Run it through npm " +
        "(npm run dev / npm start), which uses the project's Node 24.",
    );
    expect(unsupportedNodeMessage("22.0.0")).toBeNull();
    expect(unsupportedNodeMessage("24.9.0")).toBeNull();
  });

  it("9.14 an older Node exits non-zero with one line", () => {
    const result = run(oldNode.node, [...oldNode.preload, CHECK]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`${unsupportedNodeMessage(oldNode.version)}\n`);
  });

  it("9.14 Next refuses to load next.config.ts on an older Node", () => {
    const result = run(oldNode.node, [...oldNode.preload, "-e", LOAD_NEXT_CONFIG]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).not.toContain("LOADED");
    expect(result.stderr).toContain(`${unsupportedNodeMessage(oldNode.version)}\n`);
  });

  it("9.14 the project's Node passes the check and loads next.config.ts", () => {
    expect(run(process.execPath, [CHECK])).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(run(process.execPath, ["-e", LOAD_NEXT_CONFIG]).stdout).toContain("LOADED");
  });
});

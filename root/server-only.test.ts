// The database modules carry `import "server-only"`: a bundle for the browser (a client component
// importing them) refuses to build, and Node loads them only under the react-server condition that
// Next's server bundles, the tsx scripts and the test servers use.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

function importInNode(module: string, conditions: string[]) {
  return spawnSync(
    process.execPath,
    [
      ...conditions.map((condition) => `--conditions=${condition}`),
      "--import",
      "tsx",
      "--input-type=module",
      "--eval",
      `await import(${JSON.stringify(module)}); console.log("loaded");`,
    ],
    { encoding: "utf8", timeout: 30_000 },
  );
}

// Each test starts a Node process with tsx, which takes seconds on a loaded machine.
describe("server-only guard", { timeout: 60_000 }, () => {
  it("H1 the database module refuses to load where client code would import it", () => {
    const result = importInNode("./db/client.ts", []);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("cannot be imported from a Client Component module");
  });

  it("H1 the database module loads under the server's react-server condition", () => {
    const result = importInNode("./db/client.ts", ["react-server"]);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("loaded");
  });
});

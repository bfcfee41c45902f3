// Creating an embedded database's data dir runs initdb, which PGlite does in two more WebAssembly
// instances inside the calling process. Their memory stays with the process after they close:
// a server started on a new data dir idled at about 800 MiB of RSS, against about 400 MiB once
// restarted on the same dir (closing and reopening the handle did not give it back). So the data
// dir is created by a short-lived child process, whose memory goes when it exits, and the server
// opens the result as it opens any existing data dir.
import "server-only";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// CommonJS, so the child needs nothing but the path of PGlite's entry point.
const CREATE_SCRIPT = `
const { PGlite } = require(process.env.WORKSTREAMS_PGLITE_ENTRY);
PGlite.create(process.env.WORKSTREAMS_PGLITE_TARGET)
  .then((db) => db.close())
  .then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
`;

/** Where a data dir is built before it is moved into place (a crash leaves only this behind). */
const BUILDING = ".creating-";

/**
 * Creates the data dir `dataDir` (which must not hold a database yet) in a child process. It is
 * built beside its final place and renamed into it, so an interrupted creation never leaves a
 * half-made database where the server would open it; leftovers of one are removed here.
 */
export async function createDataDir(dataDir: string): Promise<void> {
  // An empty directory made beforehand (by a volume mount, say) is used; anything else is not
  // ours to replace.
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(
      `${dataDir} holds files but no database; an embedded database needs a new or empty directory`,
    );
  }
  const parent = path.dirname(dataDir);
  const base = path.basename(dataDir);
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(`${base}${BUILDING}`)) {
      rmSync(path.join(parent, entry), { recursive: true, force: true });
    }
  }
  const building = path.join(parent, `${base}${BUILDING}${process.pid}`);
  // Resolved from the app's directory: the bundled server has no module path of its own to use.
  const entry = createRequire(path.join(process.cwd(), "package.json")).resolve(
    "@electric-sql/pglite",
  );
  try {
    await runChild(entry, building);
    // The empty directory, if any, is replaced (a rename onto a non-empty one fails, so nothing
    // written into it meanwhile is lost).
    if (existsSync(dataDir)) rmdirSync(dataDir);
    renameSync(building, dataDir);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

function runChild(entry: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", CREATE_SCRIPT], {
      env: { ...process.env, WORKSTREAMS_PGLITE_ENTRY: entry, WORKSTREAMS_PGLITE_TARGET: target },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = `${stderr}${chunk}`.slice(-2_000);
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `Creating the embedded database failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`,
          ),
        );
    });
  });
}

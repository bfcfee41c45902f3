// The embedded database is one process's: a second process on the same data dir stops at once.
import { describe, expect, it } from "vitest";
import { spawnServer } from "../support/child-server";
import { serverProcesses } from "../support/server-processes";

const { start, env: serverEnv } = serverProcesses();

describe("PGlite data dir lock", () => {
  it("a second process on the same PGlite data dir stops at once with a clear message", async () => {
    const holder = await start();
    const error = await spawnServer(serverEnv).then(
      async (child) => {
        await child.kill();
        return null;
      },
      (failure: Error & { output?: string }) => failure,
    );
    expect(error?.output).toMatch(/in use by another Workstreams process/);
    await holder.kill("SIGTERM");
  });
});

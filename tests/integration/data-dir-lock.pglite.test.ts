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
    // Two server processes start one after the other (each compiles the app under tsx): on a
    // loaded box that alone can take most of a minute.
  }, 150_000);
});

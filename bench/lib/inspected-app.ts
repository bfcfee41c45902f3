// A plain-turn server (`next start` on the bench build, model delay 0) started with its V8
// inspector open, for the tools that read the server from inside: bench/heap.ts, bench/alloc.ts.
import path from "node:path";
import { prepareApp } from "./app-build";
import { createDatabase, dropDatabase } from "./db";
import { type Server, startApp } from "./servers";

export async function startInspectedApp(input: {
  db: "pglite" | "postgres";
  build: Parameters<typeof prepareApp>[0];
  /** The Postgres cluster the bench database is made on (`--pg-url`). */
  pgUrl: string;
  /** A directory of the tool's own, for the embedded data dir. */
  workDir: string;
  /** Names the bench database: `bench_<pid>_<name>`. */
  name: string;
  log: (line: string) => void;
}): Promise<{ server: Server; stop: () => Promise<void> }> {
  const build = await prepareApp(input.build, input.log);
  const dbName = `bench_${process.pid}_${input.name}`;
  const databaseUrl =
    input.db === "postgres" ? await createDatabase(input.pgUrl, dbName) : undefined;
  const server = await startApp({
    kind: input.db,
    appDir: build.dir,
    pgliteDataDir: path.join(input.workDir, "pglite"),
    databaseUrl,
    chunkDelayMs: 0,
    verbose: false,
    nodeArgs: ["--inspect=127.0.0.1:0"],
  });
  return {
    server,
    stop: async () => {
      await server.stop();
      if (databaseUrl) await dropDatabase(input.pgUrl, dbName).catch(() => undefined);
    },
  };
}

// A graceful stop (SIGTERM) of a server process in the middle of a turn: the events buffered for
// the log are committed before the database closes, and the embedded database's lock is released.
import { existsSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { turnEvents } from "@/db/schema";
import { send, userWithWorkstream } from "../support/fixtures";
import { serverProcesses } from "../support/server-processes";
import { readSse, type SseEvent } from "../support/sse";

const { start, env } = serverProcesses();

async function loggedChunks(workstreamId: string): Promise<Map<number, unknown>> {
  const handle = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL, max: 1 })
    : await openDatabase({ kind: "pglite", dataDir: env.PGLITE_DATA_DIR ?? "" });
  try {
    const rows = await handle.db
      .select()
      .from(turnEvents)
      .where(eq(turnEvents.workstreamId, workstreamId));
    return new Map(rows.map((row) => [Number(row.offset), row.chunk]));
  } finally {
    await handle.close();
  }
}

describe("shutdown", () => {
  it("S7 SIGTERM during a slow turn: the buffered events are committed, every event the client received is in the log, and the lock is released", async () => {
    // Long ticks, so events are waiting in the writer's buffer when the signal comes.
    env.WORKSTREAMS_FLUSH_INTERVAL_MS = "1500";
    const server = await start();
    const owner = await userWithWorkstream(server.url, "Shutdown Tester");
    const response = await send(owner, "[slow:20] [words:2000] a long answer, please");
    expect(response.status).toBe(200);
    const received: SseEvent[] = [];
    let streaming: () => void = () => {};
    const firstText = new Promise<void>((resolve) => {
      streaming = resolve;
    });
    const reading = readSse(response, {
      onEvent: (event) => {
        received.push(event);
        if (event.data.type === "text-delta") streaming();
      },
    }).catch(() => undefined); // the connection ends with the process
    await Promise.race([firstText, reading]);
    // The first text is committed at once; what follows waits for the next tick.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const textsBeforeSignal = received.filter((event) => event.data.type === "text-delta").length;

    await server.kill("SIGTERM");
    await reading;
    expect(server.process.exitCode).toBe(143);
    expect(server.output()).not.toMatch(/\[shutdown\]/);

    if (env.PGLITE_DATA_DIR) expect(existsSync(`${env.PGLITE_DATA_DIR}.lock`)).toBe(false);
    const logged = await loggedChunks(owner.workstreamId);
    for (const event of received) {
      expect(event.offset).not.toBeNull();
      expect(logged.get(event.offset ?? -1)).toEqual(event.data);
    }
    const loggedTexts = [...logged.values()].filter(
      (chunk) => (chunk as { type?: string }).type === "text-delta",
    );
    expect(textsBeforeSignal).toBeGreaterThan(0);
    expect(loggedTexts.length).toBeGreaterThan(textsBeforeSignal);
  });
});

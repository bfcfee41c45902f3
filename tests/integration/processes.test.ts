// Crash safety across server processes: kill -9 mid-turn and restart; nothing lost, nothing
// stuck (on PGlite and on Postgres).
import { describe, expect, it } from "vitest";
import { send, userWithWorkstream } from "../support/fixtures";
import { serverProcesses } from "../support/server-processes";
import { messageText, readSse, statuses, textOf } from "../support/sse";

const { start, historyOf } = serverProcesses();

describe("crash safety", () => {
  it("kill -9 mid-turn, restart: the turn ends failed, the partial answer is kept, the workstream is usable", async () => {
    const first = await start();
    const owner = await userWithWorkstream(first.url, "Crash Tester");
    const controller = new AbortController();
    const response = await send(owner, "[hang] long thinking", "m_crash", controller.signal);
    const seen = await readSse(response, { until: (event) => event.data.type === "text-delta" });
    expect(textOf(seen.events).length).toBeGreaterThan(0);
    await first.kill("SIGKILL");

    const second = await start();
    const client = owner.client.at(second.url);
    const info = await client.json<{ isRunning: boolean }>(
      `/api/workstreams/${owner.workstreamId}`,
    );
    expect(info.status).toBe(200);
    expect(info.body.isRunning).toBe(false);
    const afterCrash = await historyOf(owner, client);
    expect(afterCrash.messages.map((message) => message.id)[0]).toBe("m_crash");
    const partial = afterCrash.messages[1];
    expect(partial?.role).toBe("assistant");
    expect(messageText(partial ?? { parts: [] })).toBe(textOf(seen.events));
    expect(partial?.metadata.failed).toBe(true);

    const log = await readSse(
      await client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=0`),
    );
    expect(statuses(log.events).at(-1)).toBe("error");

    const next = await client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
      method: "POST",
      json: {
        message: {
          id: "m_after",
          role: "user",
          parts: [{ type: "text", text: "[echo] still here" }],
        },
      },
    });
    expect(next.status).toBe(200);
    const nextEvents = await readSse(next);
    expect(statuses(nextEvents.events).at(-1)).toBe("ready");
    const final = await historyOf(owner, client);
    expect(final.messages.map((message) => message.id).filter((id) => id.startsWith("m_"))).toEqual(
      ["m_crash", "m_after"],
    );
    await second.kill("SIGTERM");
  });
});

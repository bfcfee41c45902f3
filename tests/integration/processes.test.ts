// Crash safety across server processes: kill -9 mid-turn and restart; nothing lost, nothing
// stuck (on PGlite and on Postgres).
import { describe, expect, it } from "vitest";
import { send, userWithWorkstream } from "../support/fixtures";
import { serverProcesses } from "../support/server-processes";
import { messageText, readSse, statuses, textOf } from "../support/sse";
import { createGroup } from "./workstreams-support/helpers";

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

  it("kill -9 while a turn waits for an approval, restart: the approval is still there, and approving it completes the turn", async () => {
    const first = await start();
    const owner = await userWithWorkstream(first.url, "Suspended Crash");
    await createGroup(owner.client, "Night shift");
    const started = await send(owner, "tell my Night shift workstream: lock the gate");
    const turnId = String(started.headers.get("x-turn-id"));
    const seen = await readSse(started);
    expect(statuses(seen.events).at(-1)).toBe("suspended");
    const approvalId = seen.events.find((event) => event.data.type === "tool-approval-request")
      ?.data.approvalId;
    await first.kill("SIGKILL");

    const second = await start();
    const client = owner.client.at(second.url);
    // Not reaped: a suspended turn holds no lease; it still waits.
    const info = await client.json<{
      isRunning: boolean;
      activeTurn: { id: string; state: string };
    }>(`/api/workstreams/${owner.workstreamId}`);
    expect(info.body.activeTurn).toMatchObject({ id: turnId, state: "suspended" });
    const answered = await client.json<{ continued: boolean }>(
      `/api/workstreams/${owner.workstreamId}/turns/${turnId}/approvals/${approvalId}`,
      { method: "POST", json: { approved: true } },
    );
    expect(answered.body.continued).toBe(true);
    const suspendedAt = Math.max(...seen.events.map((event) => event.offset ?? 0));
    const followed = await readSse(
      await client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=${suspendedAt}`),
    );
    expect(statuses(followed.events).at(-1)).toBe("ready");
    expect(textOf(followed.events)).toContain("I sent the message to “Night shift”.");
    const history = await historyOf(owner, client);
    expect(history.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    await second.kill("SIGTERM");
  });
});

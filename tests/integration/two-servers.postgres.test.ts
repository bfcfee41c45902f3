// R6: any server process can serve any turn. Two processes on one Postgres: a turn started on
// A is followed live from B (LISTEN/NOTIFY) and stopped from B (the owner aborts).
import { describe, expect, it } from "vitest";
import { send, userWithWorkstream } from "../support/fixtures";
import { serverProcesses } from "../support/server-processes";
import { messageText, readSse, statuses, textOf } from "../support/sse";
import { createGroup } from "./workstreams-support/helpers";

const { start, historyOf } = serverProcesses();

describe("two server processes on one Postgres", () => {
  it("R6 a turn started on A is followed live and stopped from B", async () => {
    const a = await start();
    const b = await start();
    const owner = await userWithWorkstream(a.url, "Two Servers");
    const controller = new AbortController();
    const started = await send(
      owner,
      "[words:3000] [slow:20] a very long answer",
      "m_two",
      controller.signal,
    );
    const early = await readSse(started, { limit: 4 });
    controller.abort();
    const onB = owner.client.at(b.url);
    const info = await onB.json<{ isRunning: boolean; activeTurn: { firstOffset: number } }>(
      `/api/workstreams/${owner.workstreamId}`,
    );
    expect(info.body.isRunning).toBe(true);
    const follower = readSse(
      await onB.fetch(
        `/api/workstreams/${owner.workstreamId}/events?after=${info.body.activeTurn.firstOffset - 1}`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stop = await onB.json<{ state: string }>(`/api/workstreams/${owner.workstreamId}/stop`, {
      method: "POST",
      json: {},
    });
    expect(stop.status).toBe(200);
    expect(stop.body.state).toBe("cancelled");
    const followed = await follower;
    expect(followed.done).toBe(true);
    expect(statuses(followed.events).at(-1)).toBe("cancelled");
    expect(followed.events.slice(0, early.events.length).map((event) => event.offset)).toEqual(
      early.events.map((event) => event.offset),
    );
    const history = await historyOf(owner, onB);
    const answer = history.messages.find((message) => message.role === "assistant");
    expect(answer?.metadata.stopped).toBe(true);
    expect(messageText(answer ?? { parts: [] })).toBe(textOf(followed.events));
    expect(messageText(answer ?? { parts: [] }).split(/\s+/).length).toBeLessThan(3000);
  });

  it("R6 a turn suspended on A for an approval is approved on B, goes on there and completes", async () => {
    const a = await start();
    const b = await start();
    const owner = await userWithWorkstream(a.url, "Two Servers Approver");
    await createGroup(owner.client, "Dock log");
    const started = await send(owner, "tell my Dock log workstream: the ferry is late");
    const turnId = String(started.headers.get("x-turn-id"));
    const onA = await readSse(started);
    expect(statuses(onA.events).at(-1)).toBe("suspended");
    const request = onA.events.find((event) => event.data.type === "tool-approval-request");
    const suspendedAt = Math.max(...onA.events.map((event) => event.offset ?? 0));
    const onB = owner.client.at(b.url);
    const answered = await onB.json<{ state: string; continued: boolean }>(
      `/api/workstreams/${owner.workstreamId}/turns/${turnId}/approvals/${request?.data.approvalId}`,
      { method: "POST", json: { approved: true } },
    );
    expect(answered.body).toMatchObject({ state: "approved", continued: true });
    // A follower on A sees the rest of the same turn, run by B.
    const followed = await readSse(
      await owner.client.fetch(
        `/api/workstreams/${owner.workstreamId}/events?after=${suspendedAt}`,
      ),
    );
    // The whole status, so a failure shows the error's code and sentence, not only "error".
    const lastStatus = followed.events.filter((event) => event.data.type === "data-status").at(-1);
    expect(
      lastStatus?.data.data,
      `A:\n${a.output().slice(-1_500)}\nB:\n${b.output().slice(-1_500)}`,
    ).toEqual({ state: "ready", turnId });
    expect(
      followed.events.every((event) =>
        event.data.type === "data-status"
          ? (event.data.data as { turnId: string }).turnId === turnId
          : true,
      ),
    ).toBe(true);
    expect(textOf(followed.events)).toContain("I sent the message to “Dock log”.");
    const history = await historyOf(owner, onB);
    expect(history.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });
});

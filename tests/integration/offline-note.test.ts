// The offline model introduces itself once per workstream, through the real turn path (history
// as the turn composes it, tool steps included), and its sample tool inputs look real.
import { describe, expect, it } from "vitest";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse, type SseEvent, statuses, textOf } from "../support/sse";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" } });

const NOTE = /offline model/gi;

async function turn(owner: Owner, text: string): Promise<SseEvent[]> {
  const response = await send(owner, text);
  expect(response.status).toBe(200);
  const { events, done } = await readSse(response);
  expect(done).toBe(true);
  expect(statuses(events).at(-1)).toBe("ready");
  return events;
}

const notes = (events: SseEvent[]) => textOf(events).match(NOTE)?.length ?? 0;

describe("the offline model's note", () => {
  it("UI15 says it is the offline model in the first answer of a workstream only, over several turns (a tool turn included)", async () => {
    const owner = await app.owner("Note Once");
    const asked = [
      "What is a vector database?",
      "How would I pick one for a small team?",
      "What time is it in my office? [tool:current_time]",
      "Thanks. Summarize what we discussed. [long]",
      "One more: what should I read next?",
    ];
    const counts: number[] = [];
    for (const text of asked) counts.push(notes(await turn(owner, text)));
    expect(counts).toEqual([1, 0, 0, 0, 0]);

    // Another workstream is another conversation: it is told once again.
    const other = await app.owner("Note Again");
    expect(notes(await turn(other, "What is a vector database?"))).toBe(1);
    expect(notes(await turn(other, "And a graph database?"))).toBe(0);

    // A group workstream (its lead agent answers) likewise.
    const created = await owner.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group" },
    });
    expect(created.status).toBe(201);
    const group = { ...owner, workstreamId: created.body.id };
    const groupCounts: number[] = [];
    for (const text of ["Plan a launch", "Who does what?", "What first?"]) {
      groupCounts.push(notes(await turn(group, text)));
    }
    expect(groupCounts).toEqual([1, 0, 0]);
  });

  it("UI15 current_time answers in the IANA time zone it is called with", async () => {
    const owner = await app.owner("Time Zone");
    for (const zone of ["UTC", "Europe/Berlin", "Asia/Tokyo", "America/Argentina/Buenos_Aires"]) {
      const events = await turn(
        owner,
        `What time is it? [tool:current_time:{"timeZone":"${zone}"}]`,
      );
      const call = events.find((event) => event.data.type === "tool-input-available");
      expect(call?.data.toolName).toBe("current_time");
      expect((call?.data.input as { timeZone?: unknown } | undefined)?.timeZone).toBe(zone);
      // A zone the runtime knows: the tool answers in it rather than falling back to UTC.
      const result = events.find((event) => event.data.type === "tool-output-available");
      expect((result?.data.output as { timeZone?: string } | undefined)?.timeZone).toBe(zone);
    }
    // Called without arguments (the offline model's smallest input), it answers in UTC.
    const events = await turn(owner, "And now? [tool:current_time]");
    const result = events.find((event) => event.data.type === "tool-output-available");
    expect((result?.data.output as { timeZone?: string } | undefined)?.timeZone).toBe("UTC");
  });
});

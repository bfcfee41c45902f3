// Post-turn jobs across server processes: a server killed with -9 between the turn's commit and
// the hand-over of its event loses nothing; the next server (here on the embedded runner) picks
// the event up from the outbox, and the title and activity line are written once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActivityEntry } from "@/lib/workstreams/types";
import { type FakeInngest, startFakeInngest } from "../support/fake-inngest";
import { signUp } from "../support/http-client";
import { serverProcesses } from "../support/server-processes";
import { readSse } from "../support/sse";
import { createGroup, sendTo, waitIdle } from "./workstreams-support/helpers";

const { start } = serverProcesses();
let fake: FakeInngest;

beforeAll(async () => {
  fake = await startFakeInngest();
});
afterAll(async () => {
  await fake?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 300 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

describe("jobs across a crash", () => {
  it("J3 kill -9 between commit and send loses nothing: the next server sends it and the jobs run once", async () => {
    fake.hangSends = true;
    const first = await start({
      INNGEST_BASE_URL: fake.url,
      INNGEST_EVENT_KEY: "test-event-key",
      INNGEST_SIGNING_KEY: `signkey-test-${"cd".repeat(32)}`,
      WORKSTREAMS_OUTBOX_CLAIM_MS: "1000",
    });
    const member = await signUp(first.url, "Crash Jobs");
    const group = await createGroup(member.client);
    await readSse(
      await sendTo(member.client, group.id, "Inventory the observatory telescope lenses"),
    );
    await waitIdle(member.client, group.id);
    // The first server is stuck handing the event to an Inngest that never answers.
    await until(
      async () => fake.requests.filter((request) => request.path.startsWith("/e/")).length,
      (count) => count > 0,
    );
    await first.kill("SIGKILL");

    const second = await start();
    const client = member.client.at(second.url);
    const titled = await until(
      async () => (await client.json<{ title: string }>(`/api/workstreams/${group.id}`)).body.title,
      (title) => title !== "New Workstream",
    );
    expect(titled).toMatch(/Telescope|Observatory|Lenses/);
    const activity = await until(
      async () => (await client.json<{ activity: ActivityEntry[] }>("/api/activity")).body.activity,
      (entries) => entries.length > 0,
    );
    expect(activity.map((entry) => entry.workstreamId)).toEqual([group.id]);
    expect(activity[0]?.summary).toMatch(/telescope|observatory|lenses/i);
    await second.kill("SIGTERM");
  });
});

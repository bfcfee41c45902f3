// The live channel (one SSE stream per signed-in user) and recent activity: workstream changes
// reach the owner's other tabs, running/finished follow the turn, recent activity is written
// after each turn, and nobody else hears any of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActivityEntry, WorkstreamSummary } from "@/lib/workstreams/types";
import { wireDomains } from "@/root/wiring";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { readSse } from "../support/sse";
import {
  createGroup,
  isChange,
  joinOrganization,
  LiveFollower,
  sendTo,
  waitIdle,
} from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });
let owner: SignedUpUser;
let colleague: SignedUpUser;
let outsider: SignedUpUser;
const open: LiveFollower[] = [];

async function follow(user: SignedUpUser, query = "") {
  const follower = await LiveFollower.open(user.client, query);
  open.push(follower);
  return follower;
}

beforeAll(async () => {
  owner = await app.signUp("Live Owner");
  colleague = await app.signUp("Live Colleague");
  outsider = await app.signUp("Live Outsider");
  await joinOrganization(colleague, owner.organizationId, "member");
});
afterAll(async () => {
  await Promise.all(open.map((follower) => follower.close()));
});

describe("the live channel", () => {
  it("W1 carries created, renamed, archived and unarchived changes to the owner's other tabs", async () => {
    const otherTab = await follow(colleague);
    const stream = await createGroup(colleague.client, "Roadmap");
    await otherTab.next(isChange("created", stream.id));
    await colleague.client.fetch(`/api/workstreams/${stream.id}`, {
      method: "PATCH",
      json: { title: "Roadmap 2027" },
    });
    const renamed = await otherTab.next(isChange("renamed", stream.id));
    expect((renamed.workstream as WorkstreamSummary).title).toBe("Roadmap 2027");
    await colleague.client.fetch(`/api/workstreams/${stream.id}/archive`, { method: "POST" });
    const archived = await otherTab.next(isChange("archived", stream.id));
    expect((archived.workstream as WorkstreamSummary).status).toBe("archived");
    await colleague.client.fetch(`/api/workstreams/${stream.id}/unarchive`, { method: "POST" });
    await otherTab.next(isChange("unarchived", stream.id));
    await colleague.client.fetch(`/api/workstreams/${stream.id}/archive`, { method: "POST" });
    await colleague.client.fetch(`/api/workstreams/${stream.id}`, { method: "DELETE" });
    await otherTab.next(
      (event) => event.type === "workstream_deleted" && event.workstreamId === stream.id,
    );
  });

  it("W12 shows running while a turn runs and not running once it ends, then the activity", async () => {
    const tab = await follow(colleague);
    const stream = await createGroup(colleague.client, "Busy stream");
    await readSse(await sendTo(colleague.client, stream.id, "[echo] Draft the launch email"));
    await waitIdle(colleague.client, stream.id);
    const running = await tab.next(
      (event) =>
        isChange("running", stream.id)(event) && (event.workstream as WorkstreamSummary).isRunning,
    );
    const finished = await tab.next(
      (event) =>
        isChange("running", stream.id)(event) && !(event.workstream as WorkstreamSummary).isRunning,
    );
    expect(tab.events.indexOf(running)).toBeLessThan(tab.events.indexOf(finished));
    const activity = await tab.next(
      (event) =>
        event.type === "activity" && (event.entry as ActivityEntry).workstreamId === stream.id,
    );
    // A generated line of what happened, never the member's own words.
    expect(activity.entry).toMatchObject({ title: "Busy stream" });
    const summary = (activity.entry as ActivityEntry).summary;
    expect(summary).toMatch(/launch/i);
    expect(summary).not.toContain("Draft the launch email");
    expect(JSON.stringify(tab.events)).not.toMatch(/activeRunId|serverRunId/);
  });

  it("W1 nobody else hears a member's changes; an admin may follow the organization", async () => {
    const ownerTab = await follow(owner);
    const outsiderTab = await follow(outsider);
    const orgTab = await follow(owner, "?scope=organization");
    const stream = await createGroup(colleague.client, "Quiet plan");
    await orgTab.next(isChange("created", stream.id));
    // The organization tab got it; give the others the same time to (not) hear it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ownerTab.events.some(isChange("created", stream.id))).toBe(false);
    expect(outsiderTab.events.some(isChange("created", stream.id))).toBe(false);

    const forbidden = await colleague.client.json<{ error: { code: string } }>(
      "/api/live?scope=organization",
    );
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, "forbidden:role"]);
    const bad = await colleague.client.json<{ error: { code: string } }>("/api/live?scope=all");
    expect([bad.status, bad.body.error.code]).toEqual([400, "bad_request:scope"]);
  });

  it("W2 announces onboarding completion so other tabs can show the core workstreams", async () => {
    const member = await app.signUp("Onboarding Tab");
    const tab = await follow(member);
    await member.client.json("/api/onboarding/complete", { method: "POST" });
    await tab.next((event) => event.type === "onboarding" && event.state === "completed");
    const created = tab.events.filter(
      (event) => event.type === "workstream" && event.reason === "created",
    );
    expect(created.some((event) => (event.workstream as WorkstreamSummary).core)).toBe(true);
  });
});

describe("recent activity", () => {
  it("W1 T23 keeps one generated entry per workstream touched, newest first, never the member's words or triggers", async () => {
    const member = await app.signUp("Activity Member");
    const first = await createGroup(member.client, "First");
    const second = await createGroup(member.client, "Second");
    const sent = [
      [first, "[echo] Sketch the lighthouse restoration budget"],
      [second, "[echo] Review harbor ferry schedules"],
      [first, "[echo] Compare granite and limestone quotes"],
    ] as const;
    for (const [stream, text] of sent) {
      await readSse(await sendTo(member.client, stream.id, text));
      await waitIdle(member.client, stream.id);
    }
    const read = async () =>
      (await member.client.json<{ activity: ActivityEntry[] }>("/api/activity")).body.activity;
    let activity = await read();
    // Each workstream's entry is its own background job: wait for both, the newest on top.
    const settled = () => activity.length === 2 && /granite/i.test(activity[0]?.summary ?? "");
    for (let i = 0; i < 200 && !settled(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      activity = await read();
    }
    expect(activity.map((entry) => entry.workstreamId)).toEqual([first.id, second.id]);
    const [newest, older] = activity.map((entry) => entry.summary);
    expect(newest).toMatch(/granite/i);
    expect(newest).toMatch(/limestone/i);
    expect(older).toMatch(/harbor|ferry/i);
    for (const summary of [newest, older]) {
      expect(summary).not.toContain("[");
      expect(sent.map(([, text]) => text.replace("[echo] ", ""))).not.toContain(summary);
    }
    const others = await colleague.client.json<{ activity: ActivityEntry[] }>("/api/activity");
    expect(others.body.activity.map((entry) => entry.workstreamId)).not.toContain(first.id);
    const bad = await member.client.json<{ error: { code: string } }>("/api/activity?limit=0");
    expect([bad.status, bad.body.error.code]).toEqual([400, "bad_request:limit"]);
  });
});

// Admins see metadata, never content: a member's message text, the agent's answer, tool
// arguments and results never reach an admin through the organization's live channel or any
// admin API response, while the member's own channel still carries their activity.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminWorkstream } from "@/lib/admin/workstreams";
import { wireDomains } from "@/root/wiring";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { listApiRoutes } from "../support/routes";
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
let member: SignedUpUser;
const open: LiveFollower[] = [];

beforeAll(async () => {
  owner = await app.signUp("Metadata Owner");
  member = await app.signUp("Metadata Member");
  await joinOrganization(member, owner.organizationId, "member");
});
afterAll(async () => {
  await Promise.all(open.map((follower) => follower.close()));
});

describe("admins see metadata only", () => {
  it("S1 a member's message, answer and tool arguments never reach the admin's channel or API", async () => {
    const marker = "Zq7marker";
    const orgTab = await LiveFollower.open(owner.client, "?scope=organization");
    const memberTab = await LiveFollower.open(member.client);
    open.push(orgTab, memberTab);

    const stream = await createGroup(member.client, "Quarterly plan");
    await readSse(
      await sendTo(
        member.client,
        stream.id,
        `[echo] secret ${marker} figures [tool:word_count:{"text":"${marker} counted"}]`,
      ),
    );
    await waitIdle(member.client, stream.id);
    // The member's own tab hears the activity line (with their words); wait for it so the
    // organization tab has had every event of the turn too.
    const activity = await memberTab.next((event) => event.type === "activity");
    expect(JSON.stringify(activity)).toContain(marker);
    await orgTab.next(isChange("running", stream.id));

    expect(orgTab.events.map((event) => event.type)).not.toContain("activity");
    expect(JSON.stringify(orgTab.events)).not.toContain(marker);
    expect(orgTab.events.some(isChange("created", stream.id))).toBe(true);

    // Every admin GET route, with this workstream where a route takes one.
    const bodies: string[] = [];
    for (const route of listApiRoutes()) {
      if (!route.pattern.startsWith("/api/admin/")) continue;
      const { schemas } = (await import(route.file.replace(/route\.ts$/, "schema.ts"))) as {
        schemas: Record<string, unknown>;
      };
      const path = route.pattern.replace("[workstreamId]", stream.id);
      if (!("GET" in schemas) || /\[[^\]]+\]/.test(path)) continue;
      const response = await owner.client.fetch(path);
      expect(response.status, path).toBeLessThan(400);
      bodies.push(await response.text());
    }
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    for (const body of bodies) expect(body).not.toContain(marker);

    const list = await owner.client.json<{ workstreams: AdminWorkstream[] }>(
      "/api/admin/workstreams",
    );
    expect(list.body.workstreams.map((row) => row.id)).toContain(stream.id);
  });
});

// Onboarding and the workstreams bootstrap (seed 001): a new member starts in onboarding with the
// onboarding direct agents; completing onboarding (the explicit action, or the chief's tool)
// provisions the completed direct agents and the core workstreams, idempotently.
import { describe, expect, it } from "vitest";
import { config, getCoreWorkstreamProfile } from "@/lib/config";
import { bootstrapMember } from "@/lib/workstreams/onboarding";
import type { WorkstreamSummary } from "@/lib/workstreams/types";
import { wireDomains } from "@/root/wiring";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { readSse } from "../support/sse";
import { joinOrganization, sendTo, waitIdle } from "./workstreams-support/helpers";

type List = { workstreams: WorkstreamSummary[] };

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });
const { bootstrap } = config.workstreams;

async function directAgents(user: SignedUpUser): Promise<string[]> {
  const list = await user.client.json<List>("/api/workstreams?mode=direct");
  return list.body.workstreams.map((item) => item.agentId);
}

async function coreTypes(user: SignedUpUser): Promise<Array<string | null>> {
  const list = await user.client.json<List>("/api/workstreams?mode=group&core=true");
  return list.body.workstreams.map((item) => item.coreType);
}

describe("bootstrap", () => {
  it("W2 a new member starts in onboarding with only the onboarding direct agents", async () => {
    const user = await app.signUp("New Member");
    expect((await user.client.json("/api/onboarding")).body).toEqual({ state: "onboarding" });
    const started = await user.client.json("/api/onboarding", { method: "POST" });
    expect(started.body).toEqual({ state: "onboarding" });
    expect(await directAgents(user)).toEqual([...bootstrap.onboardingDirectAgents]);
    expect(await coreTypes(user)).toEqual([]);
    // Idempotent: a second bootstrap adds nothing.
    await user.client.json("/api/onboarding", { method: "POST" });
    expect(await directAgents(user)).toEqual([...bootstrap.onboardingDirectAgents]);
  });

  it("W2 W4 completing onboarding provisions the completed direct agents and core workstreams once", async () => {
    const user = await app.signUp("Finishing Member");
    await user.client.json("/api/onboarding", { method: "POST" });
    const done = await user.client.json<{
      state: string;
      changed: boolean;
      provisioned: unknown[];
    }>("/api/onboarding/complete", { method: "POST" });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: "completed", changed: true });
    expect(new Set(await directAgents(user))).toEqual(
      new Set([...bootstrap.onboardingDirectAgents, ...bootstrap.completedDirectAgents]),
    );
    const cores = await user.client.json<List>("/api/workstreams?mode=group&core=true");
    expect(cores.body.workstreams.map((item) => item.coreType)).toEqual([
      ...bootstrap.coreTypesAfterOnboarding,
    ]);
    for (const item of cores.body.workstreams) {
      const profile = getCoreWorkstreamProfile(item.coreType ?? "");
      expect(item).toMatchObject({ title: profile?.title, agentId: profile?.agentId, core: true });
    }
    const again = await user.client.json<{ changed: boolean; provisioned: unknown[] }>(
      "/api/onboarding/complete",
      { method: "POST" },
    );
    expect(again.body).toMatchObject({ changed: false, provisioned: [] });
    expect((await user.client.json("/api/onboarding")).body).toEqual({ state: "completed" });
    expect(await coreTypes(user)).toHaveLength(bootstrap.coreTypesAfterOnboarding.length);
  });

  it("W2 onboarding is per organization: joining another one starts onboarding there", async () => {
    const owner = await app.signUp("Org Founder");
    const user = await app.signUp("Joining Member");
    await user.client.json("/api/onboarding/complete", { method: "POST" });
    await joinOrganization(user, owner.organizationId, "member");
    expect((await user.client.json("/api/onboarding")).body).toEqual({ state: "onboarding" });
    await user.client.json("/api/onboarding", { method: "POST" });
    expect(await directAgents(user)).toEqual([...bootstrap.onboardingDirectAgents]);
  });

  it("W2 a bootstrap after completion heals missing workstreams", async () => {
    const user = await app.signUp("Healing Member");
    await user.client.json("/api/onboarding/complete", { method: "POST" });
    const [daily] = (await user.client.json<List>("/api/workstreams?mode=group&core=true")).body
      .workstreams;
    expect(daily).toBeDefined();
    // Simulate a crash half-way: provisioning is re-run from the member's state.
    const { getDb } = await import("@/db/client");
    const { workstreams } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    await (await getDb()).delete(workstreams).where(eq(workstreams.id, daily?.id ?? ""));
    expect(
      await bootstrapMember({ userId: user.userId, organizationId: user.organizationId }),
    ).toBe("completed");
    expect(await coreTypes(user)).toEqual([...bootstrap.coreTypesAfterOnboarding]);
  });
});

describe("the chief's complete_onboarding tool", () => {
  it("W2 W4 the chief completes onboarding from the onboarding conversation", async () => {
    const user = await app.signUp("Chatty Member");
    await user.client.json("/api/onboarding", { method: "POST" });
    const [chief] = (await user.client.json<List>("/api/workstreams?mode=direct")).body.workstreams;
    if (!chief) throw new Error("no chief workstream");
    const response = await sendTo(user.client, chief.id, "I'm ready [tool:complete_onboarding]");
    expect(response.status).toBe(200);
    const { events } = await readSse(response);
    const output = events.find((event) => event.data.type === "tool-output-available");
    expect(output?.data.output).toMatchObject({ completed: true, alreadyComplete: false });
    await waitIdle(user.client, chief.id);
    expect((await user.client.json("/api/onboarding")).body).toEqual({ state: "completed" });
    expect(await coreTypes(user)).toEqual([...bootstrap.coreTypesAfterOnboarding]);
  });
});

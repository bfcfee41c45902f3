// What the workstreams domain runs in every server process: the live projection of turns
// (running / finished, from the in-process bus), the post-turn recent-activity consumer of
// TurnCompleted, and the chief's complete_onboarding tool. Started once per process at start-up
// (lib/workstreams/startup.ts registers it with onStartup); tests call it directly.
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { registerScopedTool, scopedToolsFor } from "@/lib/agents/tools";
import { processSingleton } from "@/lib/server/singleton";
import { getFanout } from "@/lib/stream/fanout-instance";
import { type BusEvent, bus } from "@/lib/turns/bus";
import { registerHook } from "@/lib/turns/hooks";
import { recordTurnActivity } from "./activity";
import { notifyWorkstreamChanged, publishWorkstreamChange } from "./live";
import { completeOnboarding } from "./onboarding";

const state = processSingleton<{ started?: Promise<void>; queues: Map<string, Promise<void>> }>(
  "workstream-services",
  () => ({ queues: new Map() }),
);

/**
 * Runs `work` after the previous work for the same workstream, so a turn's "running" and
 * "finished" reach clients in the order they happened even when the reads race.
 */
function inOrder(workstreamId: string, label: string, work: () => Promise<void>): void {
  const previous = state.queues.get(workstreamId) ?? Promise.resolve();
  const next = previous
    .then(work)
    .catch((error: unknown) => console.error(`[workstreams] ${label} failed:`, error));
  state.queues.set(workstreamId, next);
  void next.finally(() => {
    if (state.queues.get(workstreamId) === next) state.queues.delete(workstreamId);
  });
}

function onBusEvent(event: BusEvent): void {
  if (event.type === "SessionTurnStart" || event.type === "SessionTurnEnd") {
    const { workstream } = event;
    // The turn hands over the workstream as it read or left it; only without it is it re-read.
    inOrder(event.workstreamId, "running update", () =>
      workstream
        ? publishWorkstreamChange(workstream, "running")
        : notifyWorkstreamChanged({ workstreamId: event.workstreamId, reason: "running" }),
    );
  } else if (event.type === "TurnCompleted") {
    inOrder(event.workstreamId, "recent activity", () =>
      recordTurnActivity({ turnId: event.turnId }),
    );
  }
}

function registerOnboardingTool(): void {
  registerScopedTool("complete_onboarding", ({ userId, organizationId }) =>
    tool({
      description:
        "Completes the member's onboarding: sets up their specialist agents and core " +
        "workstreams. Call it once the member has told you what they work on and is ready.",
      inputSchema: z.object({}),
      execute: async () => {
        const result = await completeOnboarding({ userId, organizationId });
        return {
          completed: true,
          alreadyComplete: !result.changed,
          provisioned: result.provisioned.map((workstream) => workstream.title),
        };
      },
    }),
  );
  // Scoped tools act for the workstream's owner, so they are bound when the turn resolves its
  // agent; only tools listed in the agent's config are added.
  registerHook({
    kind: "resolveAgent",
    name: "workstreams:scoped-tools",
    run: ({ workstream, resolved }) => {
      if (!workstream.ownerId) return resolved;
      const scoped = scopedToolsFor(resolved.agent.tools, {
        userId: workstream.ownerId,
        organizationId: workstream.organizationId,
        workstreamId: workstream.id,
      });
      return { ...resolved, tools: { ...resolved.tools, ...scoped } };
    },
  });
}

export function startWorkstreamServices(): Promise<void> {
  state.started ??= (async () => {
    bus.on(onBusEvent);
    registerOnboardingTool();
    // Open the live channel now, so LISTEN is up before the first change on Postgres.
    await getFanout();
  })();
  return state.started;
}

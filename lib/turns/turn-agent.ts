// An agent of a turn (its own, or a specialist it consults), as the resolveAgent hooks make it,
// with the provider events of every model call it makes (retries and fallback included).
import { defaultResolveAgent, type ResolvedAgent } from "@/lib/agents/resolve-agent";
import type { Attempt } from "@/lib/models/resilient-model";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus } from "./bus";
import { hooksOf } from "./hooks";
import type { TurnRow } from "./turn-records";

export async function resolveTurnAgent(
  {
    turn,
    workstream,
    offeredSkills,
  }: {
    turn: Pick<TurnRow, "id" | "userMessageId">;
    workstream: WorkstreamRow;
    /** How many skills the member's agents are offered (a hook leaves use_skill out at none). */
    offeredSkills: number;
  },
  agentId: string,
): Promise<ResolvedAgent> {
  const base = { turnId: turn.id };
  let resolved = await defaultResolveAgent({
    agentId,
    onAttemptStart: ({ modelId, attempt }) => {
      bus.emit({ type: "ProviderRequestStarted", ...base, modelId, attempt });
    },
    onAttempt: (attempt: Attempt) => {
      const call = { ...base, modelId: attempt.modelId, attempt: attempt.attempt };
      if (attempt.outcome === "ok") {
        bus.emit({ type: "ProviderRequestCompleted", ...call, ms: attempt.ms });
      } else {
        bus.emit({ type: "ProviderRequestFailed", ...call, error: attempt.error ?? "" });
      }
    },
  });
  const about = { id: turn.id, userMessageId: turn.userMessageId, offeredSkills };
  for (const hook of hooksOf("resolveAgent")) {
    resolved = await hook.run({ workstream, turn: about, resolved });
  }
  return resolved;
}

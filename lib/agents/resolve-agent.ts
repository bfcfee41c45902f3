// The resolveAgent hook: which agent handles the turn, with which model, reasoning
// profile and tools. `resolveAgent` hooks in lib/turns/hooks.ts may replace any of it.
import type { Tool } from "ai";
import { type AgentConfig, config, getAgent, type ReasoningProfile } from "@/lib/config";
import { type ResolvedModel, resolveModel } from "@/lib/models/registry";
import type { ResilienceOptions } from "@/lib/models/resilient-model";
import { toolsFor } from "./tools";

export type ResolvedAgent = {
  agent: AgentConfig;
  model: ResolvedModel;
  reasoningProfile: ReasoningProfile;
  tools: Record<string, Tool>;
};

/** The default resolution: the workstream's agent with its configured profile and tools. */
export async function defaultResolveAgent({
  agentId,
  onAttempt,
  onAttemptStart,
}: {
  agentId: string;
} & Pick<ResilienceOptions, "onAttempt" | "onAttemptStart">): Promise<ResolvedAgent> {
  const agent = getAgent(agentId) ?? config.agents.chief;
  return {
    agent,
    model: await resolveModel(agent.reasoningProfile, { onAttempt, onAttemptStart }),
    reasoningProfile: agent.reasoningProfile,
    tools: toolsFor(agent.tools),
  };
}

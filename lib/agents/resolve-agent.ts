// The resolveAgent hook (seed 000): which agent handles the turn, with which model, reasoning
// profile and tools. The models issue attaches it to the hook registry.
import type { Tool } from "ai";
import { type AgentConfig, config, getAgent, type ReasoningProfile } from "@/lib/config";
import { type ResolvedModel, resolveModel } from "@/lib/models/registry";
import { toolsFor } from "./tools";

export type ResolvedAgent = {
  agent: AgentConfig;
  model: ResolvedModel;
  reasoningProfile: ReasoningProfile;
  tools: Record<string, Tool>;
};

export async function resolveAgent({ agentId }: { agentId: string }): Promise<ResolvedAgent> {
  const agent = getAgent(agentId) ?? config.agents.chief;
  return {
    agent,
    model: await resolveModel(agent.reasoningProfile),
    reasoningProfile: agent.reasoningProfile,
    tools: toolsFor(agent.tools),
  };
}

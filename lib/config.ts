// The host config: agents, limits and turn settings, as one typed object. The workstreams issue
// extends it with specialists, bootstrap lists and core profiles.
export type ReasoningProfile = "fast" | "balanced" | "deep";

export type AgentConfig = {
  id: string;
  name: string;
  persona: string;
  reasoningProfile: ReasoningProfile;
  /** Tool ids from lib/agents/tools. */
  tools: readonly string[];
};

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}".`);
  }
  return value;
}

export const config = {
  agents: {
    chief: {
      id: "chief",
      name: "Chief",
      persona:
        "You are Chief, the lead agent of this organization's workstreams. You answer directly, " +
        "plan work, and keep track of decisions. Be concise and concrete.",
      reasoningProfile: "balanced",
      tools: ["current_time"],
    },
  } satisfies Record<string, AgentConfig>,
  defaultAgentId: "chief",
  turns: {
    /** Characters in one user message. */
    maxMessageChars: 32_000,
    /** Tool-loop steps per turn (seed 004's continuation bound). */
    maxSteps: intFromEnv("WORKSTREAMS_MAX_STEPS", 20),
    /** How long a new message waits for a running compaction. */
    compactionWaitMs: intFromEnv("WORKSTREAMS_COMPACTION_WAIT_MS", 30_000),
    /** Lease of a running turn; renewed every leaseRenewMs by its process. */
    leaseMs: intFromEnv("WORKSTREAMS_TURN_LEASE_MS", 20_000),
    leaseRenewMs: intFromEnv("WORKSTREAMS_TURN_LEASE_RENEW_MS", 5_000),
    /** Server-side re-chunking of text (seed 000). */
    chunkMinChars: 36,
    chunkMaxChars: 72,
    /** Longest wait before buffered events are committed and sent. */
    flushIntervalMs: 40,
  },
  history: { defaultTake: 6, maxTake: 100 },
} as const;

export type AgentId = keyof typeof config.agents;

export function getAgent(agentId: string): AgentConfig | undefined {
  return (config.agents as Record<string, AgentConfig>)[agentId];
}

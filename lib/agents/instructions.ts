// The system instructions an agent starts from: its persona (lib/config.ts), then a few lines on
// what it keeps beyond the conversation (the workstream state, the plan, the memory block, the
// memories) and when to touch each. A line is there only when the agent has the tool it names,
// so an agent is never told to use a tool it was not given. The sections are named in words, not
// by their tags, so a tag in the prompt always means the section is there. The context builder puts the
// workstream's own sections after these (lib/context/build.ts); a consulted specialist gets them
// too (lib/agents/specialists.ts).

type Guidance = { tool: string; line: string };

const KEEPING: readonly Guidance[] = [
  {
    tool: "update_workstream_state",
    line:
      "- The workstream state is what this workstream has settled. In the same turn the member " +
      "states a constraint, agrees a decision (keep its reason), takes on a task or raises a " +
      "question or risk, record it with update_workstream_state; skip small talk and what is " +
      "already listed.",
  },
  {
    tool: "update_plan",
    line:
      "- The execution plan is the plan you follow. When work of three or more steps is " +
      "agreed, write it with update_plan, then update step statuses as the work moves.",
  },
  {
    tool: "add_memory_note",
    line:
      "- The memory block holds short notes for this workstream only: add_memory_note for a " +
      "result or preference you will need in later turns here.",
  },
  {
    tool: "remember",
    line:
      "- Memories outlast the workstream. When the member tells you something lasting about " +
      "themselves or their work (above all while onboarding), remember it; recall when an " +
      "earlier workstream may hold the answer. Never keep or repeat another member's details.",
  },
];

const HEADING = "What you keep between turns, and when to touch it:";

/** The agent's instructions for a request offering `tools` (ids; the agent's own by default). */
export function agentInstructions(
  agent: { persona: string; tools: readonly string[] },
  tools: readonly string[] = agent.tools,
): string {
  const offered = new Set(tools);
  const lines = KEEPING.filter((guidance) => offered.has(guidance.tool)).map(
    (guidance) => guidance.line,
  );
  return lines.length
    ? [agent.persona, [HEADING, ...lines].join("\n")].join("\n\n")
    : agent.persona;
}

// Numbers as the admin console shows them: compact token counts, costs written as everywhere
// else, and how many turns have no known usage (shown as such, never as zero).
export function formatTokens(count: number): string {
  if (count < 1_000) return String(Math.round(count));
  if (count < 1_000_000) return `${(count / 1_000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(count < 10_000_000 ? 2 : 1)}M`;
}

// Costs are written the same way as in the chat.
export { formatCost } from "@/lib/format/cost";

/** Turns whose usage the provider did not report: they are not in the sums, and not free. */
export function formatWithoutUsage(turns: number): string {
  return turns === 1 ? "1 turn without usage" : `${turns} turns without usage`;
}

export const KIND_LABELS = { direct: "Direct", group: "Group", core: "Core" } as const;

export function kindOf(workstream: { mode: "direct" | "group"; core: boolean }) {
  return workstream.mode === "direct" ? "direct" : workstream.core ? "core" : "group";
}

// How a usage figure reads wherever it is shown (the chat's details line, the turn inspector, the
// admin's runs): a duration in the largest unit that keeps it short, and the mark for a count or
// cost the provider did not report, which is unknown rather than zero.

/** How a count the provider did not report reads: unknown, not zero. */
export const UNKNOWN = "—";

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

// What a workstream compacts: counted with the builder's own measure (stored token counts plus
// margin and per-message overhead, lib/context/window.ts) against the window of the model the
// last turn used. Whether it is due is the context window's (`compactionDue`), so the turn's end
// decides it without a statement and the job decides it again from the rows.
import { config } from "@/lib/config";
import { messageBudgetTokens } from "@/lib/context/window";

export { compactionDue, historyBudget } from "@/lib/context/window";

/** A message of the uncompacted history: its role and stored token count. */
export type HistoryEntry = { id: string; role: string; tokens: number };

/**
 * How many of the oldest messages to compact: all but the newest whole turns that fit the keep
 * share of the window. What stays starts at a member's message, so a turn is never split (a
 * tool call and its result live in one message, so they never are either); the last turn always
 * stays, however long. 0 when nothing older than it is there to compact.
 */
export function compactedCount(entries: HistoryEntry[], window: number): number {
  const keep = window * config.compaction.keepShare;
  let used = 0;
  let start = entries.length;
  while (start > 0) {
    const cost = messageBudgetTokens(entries[start - 1]?.tokens ?? 0);
    if (used + cost > keep) break;
    used += cost;
    start -= 1;
  }
  // Forward to the next member's message within what fits, else back to the last one.
  let boundary = entries.findIndex((entry, index) => index >= start && entry.role === "user");
  if (boundary === -1) boundary = entries.findLastIndex((entry) => entry.role === "user");
  return Math.max(0, boundary);
}

/** The longest a summary may be, in characters: about a tenth of the window, within bounds. */
export function summaryMaxChars(window: number): number {
  return Math.max(400, Math.min(4_000, Math.floor(window * 0.4)));
}

/**
 * How background tasks write their transcripts, one labelled line per entry: what the caller
 * writes (lib/models/short-text.ts, lib/compaction) and the offline model reads back.
 */
export const TRANSCRIPT_LABELS = { member: "Member", agent: "Agent", tools: "Tools used" } as const;

/** The compaction prompt's lines besides the conversation's own. */
export const COMPACTION_LABELS = {
  previous: "Previous summary",
  limit: "Summary limit",
} as const;

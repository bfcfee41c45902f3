// The memory block's summary from the model: the previous summary and the oldest notes, each
// with the role that wrote it, written as the summary task's transcript. The configured model
// (or the offline one) folds them into one summary; the result is cut to the item limit.
import "server-only";
import { generateShortText } from "@/lib/models/short-text";
import type { MemoryBlockEntry } from "@/lib/state/schema";
import { type FoldInput, summaryText } from "./block";

/**
 * The memory summary's input: an optional `Previous summary: …` line, then one `Note (role): …`
 * line per note, oldest first.
 */
export const MEMORY_LABELS = { previous: "Previous summary", note: "Note" } as const;

const oneLine = (text: string) => text.replace(/\s+/gu, " ").trim();

/** The previous summary (if any), then one labelled line per note, oldest first. */
export function memoryTranscript({
  previous,
  entries,
}: {
  previous: { text: string } | null;
  entries: Pick<MemoryBlockEntry, "role" | "text">[];
}): string {
  return [
    ...(previous ? [`${MEMORY_LABELS.previous}: ${oneLine(previous.text)}`] : []),
    ...entries.map(
      (entry) => `${MEMORY_LABELS.note} (${oneLine(entry.role)}): ${oneLine(entry.text)}`,
    ),
  ].join("\n");
}

/** One summary of the fold's previous summary and notes; throws when the model gave nothing. */
export async function summarizeFold(fold: FoldInput): Promise<string> {
  const raw = await generateShortText({
    task: "memory-summary",
    transcript: memoryTranscript(fold),
  });
  const summary = summaryText(raw);
  // An empty summary would drop the notes: fail the step so it is tried again.
  if (!summary) throw new Error("The model gave an empty memory summary");
  return summary;
}

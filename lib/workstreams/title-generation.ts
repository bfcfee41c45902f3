// A generated title for a group workstream that still has the default one. Each function below is
// one step of the title job (inngest/functions/title-generation.ts), so a retry redoes only the
// step that failed. The title is written by compare-and-set against the default title, so a
// member's rename, whenever it happens, always wins; direct and core workstreams keep theirs.
import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { config } from "@/lib/config";
import { cleanLine, generateShortText, writeTranscript } from "@/lib/models/short-text";
import { openingConversation } from "./conversation";
import { publishWorkstreamChange } from "./live";
import { summaryColumns } from "./summary";
import { normalizeTitle } from "./titles";

export const GENERATED_TITLE_MAX_WORDS = 6;

function stillUntitled() {
  return and(
    eq(workstreams.mode, "group"),
    eq(workstreams.core, false),
    eq(workstreams.title, config.workstreams.defaultGroupTitle),
  );
}

/** The conversation to name, or null when there is nothing to do (gone, renamed, not a group). */
export async function untitledConversation(workstreamId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: workstreams.id })
    .from(workstreams)
    .where(and(eq(workstreams.id, workstreamId), stillUntitled()))
    .limit(1);
  if (!row) return null;
  const entries = await openingConversation(workstreamId);
  return entries.length ? writeTranscript(entries) : null;
}

/** A title of at most six words for the conversation; null when the model gave nothing usable. */
export async function proposeTitle(transcript: string): Promise<string | null> {
  const raw = await generateShortText({ task: "title", transcript });
  const title = normalizeTitle(
    cleanLine(raw, {
      maxWords: GENERATED_TITLE_MAX_WORDS,
      maxChars: config.workstreams.titleMaxChars,
    }),
  );
  return title && title !== config.workstreams.defaultGroupTitle ? title : null;
}

/** Writes the title unless the workstream was renamed meanwhile; publishes it when written. */
export async function applyGeneratedTitle(workstreamId: string, title: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .update(workstreams)
    .set({ title })
    .where(and(eq(workstreams.id, workstreamId), stillUntitled()))
    .returning(summaryColumns);
  if (!row) return false;
  await publishWorkstreamChange(row, "title");
  return true;
}

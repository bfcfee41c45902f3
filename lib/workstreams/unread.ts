// The unread mark: a message from another workstream (send_message) marks its target unread;
// opening the workstream clears the mark, and every open sidebar of the owner hears of it.
import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { publishWorkstreamChange } from "./live";
import { summaryColumns } from "./summary";

/** Clears the mark when it is set; a workstream that is not unread costs no write. */
export async function markWorkstreamRead({
  workstreamId,
  unreadSince,
}: {
  workstreamId: string;
  unreadSince: Date | null;
}): Promise<void> {
  if (!unreadSince) return;
  const db = await getDb();
  const [row] = await db
    .update(workstreams)
    .set({ unreadSince: null })
    .where(and(eq(workstreams.id, workstreamId), isNotNull(workstreams.unreadSince)))
    .returning(summaryColumns);
  if (row) await publishWorkstreamChange(row, "updated");
}

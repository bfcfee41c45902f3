// A compacted range for tests that need one without pushing a workstream past its window: four
// messages, the first two of which a compaction covers. Written straight to the tables, as a
// finished compaction would have left them.

import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { compactions, messages, workstreams } from "@/db/schema";

export async function seedCompaction({
  workstreamId,
  organizationId,
}: {
  workstreamId: string;
  organizationId: string;
}): Promise<{ compactionId: string; messageIds: string[] }> {
  const db = await getDb();
  const stamp = crypto.randomUUID().slice(0, 8);
  const rows = await db
    .insert(messages)
    .values(
      ["user", "assistant", "user", "assistant"].map((role, index) => ({
        workstreamId,
        id: `seeded_${stamp}_${index}`,
        role: role as "user" | "assistant",
        parts: [{ type: "text", text: `Seeded message ${index + 1} about the harbor` }],
        tokenCount: 8,
      })),
    )
    .returning({ id: messages.id, seq: messages.seq });
  const [first, second] = rows;
  if (!first || !second) throw new Error("no seeded messages");
  const compactionId = `cmp_seeded_${stamp}`;
  await db.insert(compactions).values({
    id: compactionId,
    workstreamId,
    organizationId,
    firstMessageId: first.id,
    lastMessageId: second.id,
    firstSeq: first.seq,
    lastSeq: second.seq,
    messageCount: 2,
    summary: "Topics: harbor.",
    tokensBefore: 30,
    tokensAfter: 10,
    model: "offline-1",
    durationMs: 1,
  });
  await db
    .update(workstreams)
    .set({ compactionSummary: "Topics: harbor.", lastCompactedMessageId: second.id })
    .where(eq(workstreams.id, workstreamId));
  return { compactionId, messageIds: rows.map((row) => row.id) };
}

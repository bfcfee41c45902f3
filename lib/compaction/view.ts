// What the owner sees of a workstream's compactions: each compacted range (its ends, how many
// messages, when), its summary, what it changed in the state, and the token counts before and
// after; and the original messages of a range, paged like history. Owner only: anyone else gets
// 404, admins included (they see counts and times in the console, never summaries).
import "server-only";
import type { CompactionRow } from "@/db/schema";
import type { Viewer } from "@/lib/auth/viewer";
import { type HistoryPage, listMessageHistoryPage } from "@/lib/turns/messages";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { getCompactionRow, listCompactionRows, type StateChanges } from "./store";

export type CompactionView = {
  id: string;
  firstMessageId: string;
  lastMessageId: string;
  messageCount: number;
  summary: string;
  /** The state items the summary's delta added, and those the merge evicted to make room. */
  stateChanges: StateChanges;
  tokensBefore: number;
  tokensAfter: number;
  createdAt: string;
};

function toView(row: CompactionRow): CompactionView {
  const changes = row.stateChanges as Partial<StateChanges> | null;
  return {
    id: row.id,
    firstMessageId: row.firstMessageId,
    lastMessageId: row.lastMessageId,
    messageCount: row.messageCount,
    summary: row.summary,
    stateChanges: { added: changes?.added ?? [], evicted: changes?.evicted ?? [] },
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The compactions of a workstream whose ownership the caller has checked (the chat page). */
export async function compactionViewsOf({
  workstreamId,
}: {
  workstreamId: string;
}): Promise<CompactionView[]> {
  return (await listCompactionRows({ workstreamId })).map(toView);
}

/** The workstream's compactions, oldest first. */
export async function listCompactions({
  viewer,
  workstreamId,
}: {
  viewer: Viewer;
  workstreamId: string;
}): Promise<CompactionView[]> {
  const workstream = await getOwnedWorkstream({ viewer, workstreamId });
  return (await listCompactionRows({ workstreamId: workstream.id })).map(toView);
}

/**
 * A page of a compacted range's original messages, newest first like history (`take`, cursor
 * `beforeMessageId`, which must name a message of the range).
 */
export async function compactedMessagesPage({
  viewer,
  workstreamId,
  compactionId,
  take,
  beforeMessageId,
}: {
  viewer: Viewer;
  workstreamId: string;
  compactionId: string;
  take?: number;
  beforeMessageId?: string;
}): Promise<HistoryPage> {
  const workstream = await getOwnedWorkstream({ viewer, workstreamId });
  const row = await getCompactionRow({ workstreamId: workstream.id, compactionId });
  return listMessageHistoryPage({
    workstreamId: workstream.id,
    take,
    beforeMessageId,
    range: { fromSeq: row.firstSeq, toSeq: row.lastSeq },
  });
}

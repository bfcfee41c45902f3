// Workstream messages: persisted UIMessages with metadata, a token count computed once when
// written, and cursor paging by insertion sequence.
import "server-only";
import type { UIMessage } from "ai";
import { and, desc, eq, gte, lt, lte } from "drizzle-orm";
import { encode } from "gpt-tokenizer";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { config } from "@/lib/config";
import { AppError } from "@/lib/http/errors";

export type MessageMetadata = {
  agentId?: string;
  turnId?: string;
  model?: string;
  reasoningProfile?: string;
  /** Null when the provider reported no counts (unknown, shown as "—"). */
  inputTokens?: number | null;
  outputTokens?: number | null;
  reasoningTokens?: number;
  /** Null when the usage or the model's price is unknown. */
  costUsd?: number | null;
  startedAt?: string;
  finishedAt?: string;
  stopped?: boolean;
  failed?: boolean;
  /** A message another workstream sent here (send_message): where it came from, and when. */
  relayedFrom?: { workstreamId: string; title: string; agentId: string };
  sentAt?: string;
};

export type WorkstreamMessage = UIMessage<MessageMetadata>;

export function countTokens(parts: unknown): number {
  const text = (Array.isArray(parts) ? parts : [])
    .map((part: { type?: string; text?: string; input?: unknown; output?: unknown }) => {
      if (part.type === "text" || part.type === "reasoning") return part.text ?? "";
      if (part.type?.startsWith("tool-")) return JSON.stringify([part.input, part.output]);
      return "";
    })
    .join("\n");
  return text ? encode(text).length : 0;
}

type Row = typeof messages.$inferSelect;

function toMessage(row: Row): WorkstreamMessage {
  return {
    id: row.id,
    role: row.role,
    parts: row.parts as WorkstreamMessage["parts"],
    metadata: row.metadata as MessageMetadata,
  };
}

export async function findMessage({
  workstreamId,
  messageId,
}: {
  workstreamId: string;
  messageId: string;
}): Promise<(WorkstreamMessage & { seq: number; turnId: string | null }) | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workstreamId, workstreamId), eq(messages.id, messageId)))
    .limit(1);
  return row ? { ...toMessage(row), seq: Number(row.seq), turnId: row.turnId } : null;
}

export type HistoryPage = {
  messages: WorkstreamMessage[];
  prevCursor: string | null;
  hasMore: boolean;
};

export async function listMessageHistoryPage({
  workstreamId,
  take = config.history.defaultTake,
  beforeMessageId,
  range,
}: {
  workstreamId: string;
  take?: number;
  beforeMessageId?: string;
  /**
   * Only messages whose sequence lies in this range, inclusive (a compacted range's originals);
   * a cursor outside it is refused with `bad_request:range_cursor`.
   */
  range?: { fromSeq: number; toSeq: number };
}): Promise<HistoryPage> {
  const db = await getDb();
  let beforeSeq: number | null = null;
  if (beforeMessageId) {
    const anchor = await findMessage({ workstreamId, messageId: beforeMessageId });
    if (range && (!anchor || anchor.seq < range.fromSeq || anchor.seq > range.toSeq)) {
      throw new AppError("bad_request:range_cursor");
    }
    if (!anchor) throw new AppError("bad_request:cursor");
    beforeSeq = anchor.seq;
  }
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.workstreamId, workstreamId),
        beforeSeq === null ? undefined : lt(messages.seq, beforeSeq),
        range ? gte(messages.seq, range.fromSeq) : undefined,
        range && beforeSeq === null ? lte(messages.seq, range.toSeq) : undefined,
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(take + 1);
  const hasMore = rows.length > take;
  const page = rows.slice(0, take).reverse();
  return {
    messages: page.map(toMessage),
    prevCursor: hasMore ? (page[0]?.id ?? null) : null,
    hasMore,
  };
}

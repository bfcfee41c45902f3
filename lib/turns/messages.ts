// Workstream messages: persisted UIMessages with metadata, a token count computed once when
// written, and cursor paging by insertion sequence (seed 001's listMessageHistoryPage).
import type { UIMessage } from "ai";
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { encode } from "gpt-tokenizer";
import { type Db, getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { config } from "@/lib/config";
import { AppError } from "@/lib/http/errors";
import { toStorableJson } from "@/lib/text/storable";

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

/** Inserts the user message unless it exists; returns whether it was new. */
export async function insertUserMessage(
  db: Db,
  {
    workstreamId,
    message,
    turnId,
  }: { workstreamId: string; message: WorkstreamMessage; turnId: string },
): Promise<boolean> {
  const inserted = await db
    .insert(messages)
    .values({
      workstreamId,
      id: message.id,
      role: "user",
      parts: message.parts,
      metadata: message.metadata ?? {},
      tokenCount: countTokens(message.parts),
      turnId,
    })
    .onConflictDoNothing()
    .returning({ id: messages.id });
  return inserted.length > 0;
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

export async function upsertAssistantMessage({
  workstreamId,
  message,
  turnId,
}: {
  workstreamId: string;
  message: WorkstreamMessage;
  turnId: string;
}): Promise<void> {
  const db = await getDb();
  // Model and tool output (text, reasoning, tool inputs and outputs) may hold text Postgres
  // cannot store; it is kept with U+FFFD in place of those characters.
  const parts = toStorableJson(message.parts);
  const metadata = toStorableJson(message.metadata ?? {});
  const tokenCount = countTokens(parts);
  await db
    .insert(messages)
    .values({
      workstreamId,
      id: message.id,
      role: "assistant",
      parts,
      metadata,
      tokenCount,
      turnId,
    })
    .onConflictDoUpdate({
      target: [messages.workstreamId, messages.id],
      set: {
        parts,
        metadata,
        tokenCount,
        updatedAt: sql`now()`,
      },
    });
}

/** Messages after the last compaction, oldest first: what the model sees. */
export async function loadHistory({
  workstreamId,
  afterMessageId,
}: {
  workstreamId: string;
  afterMessageId: string | null;
}): Promise<WorkstreamMessage[]> {
  const db = await getDb();
  let afterSeq = 0;
  if (afterMessageId) {
    const anchor = await findMessage({ workstreamId, messageId: afterMessageId });
    afterSeq = anchor?.seq ?? 0;
  }
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workstreamId, workstreamId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq));
  return rows.map(toMessage);
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
}: {
  workstreamId: string;
  take?: number;
  beforeMessageId?: string;
}): Promise<HistoryPage> {
  const db = await getDb();
  let beforeSeq: number | null = null;
  if (beforeMessageId) {
    const anchor = await findMessage({ workstreamId, messageId: beforeMessageId });
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

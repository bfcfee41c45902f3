// The turn's writes and reads of the messages table: the posted message (and a message posted
// before with the same id), the answer a turn keeps, and the history a turn is composed from.
// Writes take the caller's transaction: a turn's messages change with its row, never apart.
import "server-only";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { messages, type TurnState, turns } from "@/db/schema";
import { config } from "@/lib/config";
import type { HistoryMessage } from "@/lib/context/window";
import { toStorableJson } from "@/lib/text/storable";
import { countTokens, type MessageMetadata, type WorkstreamMessage } from "./messages";

/** A message posted before with the same id: its role and its turn's state. */
export type PostedBefore = { role: string; turnId: string | null; turnState: TurnState | null };

export async function findPostedMessage(
  tx: Tx,
  { workstreamId, messageId }: { workstreamId: string; messageId: string },
): Promise<PostedBefore | null> {
  const [row] = await tx
    .select({ role: messages.role, turnId: messages.turnId, turnState: turns.state })
    .from(messages)
    .leftJoin(turns, eq(turns.id, messages.turnId))
    .where(and(eq(messages.workstreamId, workstreamId), eq(messages.id, messageId)))
    .limit(1);
  return row ?? null;
}

/** The member's message of `turnId` (a retried one exists already and is left as it is). */
export async function insertUserMessage(
  tx: Tx,
  {
    workstreamId,
    turnId,
    message,
  }: { workstreamId: string; turnId: string; message: WorkstreamMessage },
): Promise<void> {
  await tx
    .insert(messages)
    .values({
      workstreamId,
      id: message.id,
      role: "user",
      parts: message.parts,
      metadata: { ...message.metadata, turnId },
      tokenCount: countTokens(message.parts),
      turnId,
    })
    .onConflictDoNothing();
}

/**
 * The turn's answer, as its assistant message (replacing the one kept when it was suspended).
 * Model and tool output may hold text Postgres cannot store; it is kept with U+FFFD instead.
 */
export async function saveAnswer(
  tx: Tx,
  {
    workstreamId,
    turnId,
    message,
    tokens,
  }: { workstreamId: string; turnId: string; message: WorkstreamMessage; tokens?: number },
): Promise<void> {
  const parts = toStorableJson(message.parts);
  const metadata = toStorableJson(message.metadata ?? {});
  const tokenCount = tokens ?? countTokens(parts);
  await tx
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
      set: { parts, metadata, tokenCount, updatedAt: sql`now()` },
    });
}

/**
 * The history since the workstream's last compaction, oldest first, with each message's stored
 * token count: the newest `config.context.maxHistoryMessages` in one query (a longer history costs
 * no more statements). The context builder trims them to the turn's window.
 */
export async function readHistory({
  workstreamId,
  lastCompactedMessageId,
}: {
  workstreamId: string;
  lastCompactedMessageId: string | null;
}): Promise<HistoryMessage[]> {
  const db = await getDb();
  const anchor = lastCompactedMessageId
    ? sql`coalesce((select p."seq" from "messages" p
        where p."workstream_id" = ${workstreamId} and p."id" = ${lastCompactedMessageId}), 0)`
    : sql`0`;
  const rows = await db
    .select({
      id: messages.id,
      role: messages.role,
      parts: messages.parts,
      metadata: messages.metadata,
      tokens: messages.tokenCount,
    })
    .from(messages)
    .where(and(eq(messages.workstreamId, workstreamId), gt(messages.seq, anchor)))
    .orderBy(desc(messages.seq))
    .limit(config.context.maxHistoryMessages);
  return rows.reverse().map(({ tokens, ...row }) => ({
    message: {
      id: row.id,
      role: row.role,
      parts: row.parts as WorkstreamMessage["parts"],
      metadata: row.metadata as MessageMetadata,
    },
    tokens,
  }));
}

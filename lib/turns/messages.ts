// Workstream messages: persisted UIMessages with metadata, a token count computed once when
// written, and cursor paging by insertion sequence.
import "server-only";
import { and, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import { encode } from "gpt-tokenizer";
import { executePrepared, getDb } from "@/db/client";
import { messages } from "@/db/schema";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import type { ChatMessage, MessageMetadata } from "@/lib/stream/ui-parts";

// The metadata's schema is shared with the browser (lib/stream/ui-parts.ts).
export type { MessageMetadata };

export type WorkstreamMessage = ChatMessage;

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
  return pageOf(rows.map(toMessage), take);
}

/** A page from up to `take + 1` messages read newest first: the extra one says there is more. */
function pageOf(newestFirst: WorkstreamMessage[], take: number): HistoryPage {
  const hasMore = newestFirst.length > take;
  const page = newestFirst.slice(0, take).reverse();
  return { messages: page, prevCursor: hasMore ? (page[0]?.id ?? null) : null, hasMore };
}

type HistoryPageRow = {
  workstream_id: string | null;
  anchor_seq: string | number | bigint | null;
  rows: WorkstreamMessage[] | string | null;
};

/**
 * A page of the viewer's workstream for the history route: the ownership, the cursor and the
 * page in one statement, read on every chat page load and every scroll back. The viewer is
 * checked first (401/403), then the workstream (404), then the cursor (400).
 */
export async function readHistoryPage({
  viewer,
  workstreamId,
  take = config.history.defaultTake,
  beforeMessageId,
}: {
  viewer: Viewer;
  workstreamId: string;
  take?: number;
  beforeMessageId?: string;
}): Promise<HistoryPage> {
  const cursor = beforeMessageId ?? null;
  const workstream = sql`(select "id" from ws)`;
  // Two texts, not one with "cursor is null or ...": each keeps its own plan, and both walk the
  // (workstream, seq) index backwards from where the page starts.
  const before = cursor === null ? sql`` : sql`and m."seq" < (select "seq" from anchor)`;
  const [row] = await executePrepared<HistoryPageRow>(sql`
      with ws as (
        select w."id" from "workstreams" w
        where w."id" = ${workstreamId} and w."organization_id" = ${viewer.organizationId}
          and w."owner_id" = ${viewer.userId}
      ), anchor as (
        select m."seq" from "messages" m
        where m."workstream_id" = ${workstream} and m."id" = ${cursor}::text
      )
      select ${workstream} as workstream_id,
        (select "seq" from anchor) as anchor_seq,
        (select json_agg(json_build_object('id', p."id", 'role', p."role", 'parts', p."parts",
            'metadata', p."metadata") order by p."seq" desc)
          from (select m."id", m."role", m."parts", m."metadata", m."seq" from "messages" m
            where m."workstream_id" = ${workstream} ${before}
            order by m."seq" desc limit ${take + 1}) p) as rows`);
  if (!row?.workstream_id) throw new AppError("not_found:workstream");
  if (cursor !== null && row.anchor_seq === null) throw new AppError("bad_request:cursor");
  // Built by the statement with exactly a message's four fields.
  const rows: WorkstreamMessage[] =
    (typeof row.rows === "string" ? JSON.parse(row.rows) : row.rows) ?? [];
  return pageOf(rows, take);
}

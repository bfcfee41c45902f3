// A workstream's conversation as plain lines for background work (titles, activity lines): text
// parts only, tool calls as their names. Read by the jobs, never sent to a client.
import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { executePrepared, getDb } from "@/db/client";
import { messages } from "@/db/schema";
import type { TranscriptEntry } from "@/lib/models/short-text";

type Part = { type?: unknown; text?: unknown; toolName?: unknown };

function entriesOf(role: string, parts: unknown): TranscriptEntry[] {
  if (!Array.isArray(parts)) return [];
  const text = (parts as Part[])
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join(" ")
    .trim();
  const tools = [
    ...new Set(
      (parts as Part[]).flatMap((part) => {
        if (typeof part.type !== "string") return [];
        if (part.type === "dynamic-tool" && typeof part.toolName === "string")
          return [part.toolName];
        return part.type.startsWith("tool-") ? [part.type.slice("tool-".length)] : [];
      }),
    ),
  ];
  const entries: TranscriptEntry[] = [];
  if (role === "assistant" && tools.length) entries.push({ role: "tools", names: tools });
  if (text) entries.push({ role: role === "user" ? "member" : "agent", text });
  return entries;
}

/** The first `limit` messages of the workstream, oldest first. */
export async function openingConversation(
  workstreamId: string,
  limit = 6,
): Promise<TranscriptEntry[]> {
  const db = await getDb();
  const rows = await db
    .select({ role: messages.role, parts: messages.parts })
    .from(messages)
    .where(eq(messages.workstreamId, workstreamId))
    .orderBy(asc(messages.seq))
    .limit(limit);
  return rows.flatMap((row) => entriesOf(row.role, row.parts));
}

/**
 * The messages one turn wrote: the member's request and the agent's answer; nothing once a later
 * turn of the workstream has completed (in the same statement), since what is derived from the
 * turn would be replaced by what is derived from that one.
 */
export async function turnConversation(
  workstreamId: string,
  turnId: string,
): Promise<TranscriptEntry[]> {
  const rows = await executePrepared<{ role: string; parts: unknown }>(sql`
    select m."role", m."parts" from "messages" m
    where m."workstream_id" = ${workstreamId} and m."turn_id" = ${turnId}
      and not exists (
        select 1 from "turns" this join "turns" later on later."workstream_id" = this."workstream_id"
          and later."created_at" > this."created_at" and later."state" = 'completed'
        where this."id" = ${turnId} and this."workstream_id" = ${workstreamId})
    order by m."seq"`);
  return rows.flatMap((row) => entriesOf(row.role, row.parts));
}

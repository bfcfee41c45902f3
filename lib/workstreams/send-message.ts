// send_message: an agent writes to another workstream of the same owner. The message is appended
// there as the agent's (with metadata naming the sender and the workstream it came from), starts
// no turn, and marks the target unread until its owner opens it. It needs the owner's approval
// by default (it acts outside the conversation the owner is looking at). Refusals (not the
// owner's, archived, busy, ambiguous) are tool errors the model sees.
import "server-only";
import { tool } from "ai";
import { sql } from "drizzle-orm";
import { encode } from "gpt-tokenizer";
import { z } from "zod";
import { executePrepared, getDb } from "@/db/client";
import { fromJson } from "@/db/json";
import { OPEN_STATES_LIST } from "@/db/schema";
import { declareApproval } from "@/lib/agents/approval-policy";
import { registerScopedTool, type ToolScope } from "@/lib/agents/tools";
import { strictSchema } from "@/lib/models/strict-schema";
import { toStorableText } from "@/lib/text/storable";
import { publishWorkstreamChange } from "./live";
import type { SummaryRow } from "./summary";

export const SEND_MESSAGE_MAX_CHARS = 4_000;

// Every turn sends the model this definition, so it is kept short: the fields explain themselves
// through the description.
const DESCRIPTION =
  "Posts text as your message in another of the member's workstreams; no reply starts there. " +
  "Use it only when the member asks you to pass something on to another workstream; not to " +
  "answer here. The member approves each message first.";

export const sendMessageSchema = z.strictObject({
  workstreamId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('The target\'s id or exact title, e.g. "Launch plan".'),
  text: z
    .string()
    .trim()
    .min(1)
    .max(SEND_MESSAGE_MAX_CHARS)
    .describe('The message, e.g. "The launch moved to 12 March."'),
  reason: z
    .string()
    .trim()
    .max(300)
    .optional()
    .describe('Why, for the member approving it, e.g. "You asked me to tell the team."'),
});

/** The model sees the bare shape (strict mode); the limits are checked on the way in (an error it sees). */
export const sendMessageInput = strictSchema(sendMessageSchema);

export type SendMessageInput = z.infer<typeof sendMessageSchema>;

/** Why a message was not sent: each is a sentence the model can act on. */
export class SendMessageRefused extends Error {}

type SendRow = {
  matches: number;
  target_id: string | null;
  target_title: string | null;
  archived: boolean | null;
  busy: boolean | null;
  same: boolean | null;
  message_id: string | null;
  summary:
    | (Omit<SummaryRow, "createdAt" | "updatedAt" | "unreadSince"> & {
        createdAt: string;
        updatedAt: string;
        unreadSince: string | null;
      })
    | null;
};

/**
 * Appends `text` to the owner's workstream named by `target` (id, else exact title ignoring
 * case), in one statement that refuses, writing nothing, when it is not exactly one workstream
 * of the owner, when it is this workstream, archived, or has a turn open.
 */
export async function relayMessage({
  scope,
  target,
  text,
}: {
  scope: ToolScope;
  target: string;
  text: string;
}): Promise<{ workstreamId: string; title: string; messageId: string }> {
  const _db = await getDb();
  const body = toStorableText(text);
  const parts = [{ type: "text", text: body }];
  // One text part: its count is its text's, as the messages' own writer counts parts.
  const messageId = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
  const [row] = await executePrepared<SendRow>(sql`
    with source as (
      select "title" from "workstreams" where "id" = ${scope.workstreamId}
    ), found as (
      select w."id", w."title", w."status", w."organization_id",
        exists (select 1 from "turns" t where t."workstream_id" = w."id"
          and t."state" in (${OPEN_STATES_LIST})) as busy
      from "workstreams" w
      where w."organization_id" = ${scope.organizationId} and w."owner_id" = ${scope.userId}
        and (w."id" = ${target} or (lower(w."title") = lower(${target})
          and not exists (select 1 from "workstreams" x where x."id" = ${target}
            and x."organization_id" = ${scope.organizationId} and x."owner_id" = ${scope.userId})))
    ), chosen as (
      select * from found
      where (select count(*) from found) = 1 and "status" <> 'archived' and not busy
        and "id" <> ${scope.workstreamId}
    ), sent as (
      insert into "messages" ("workstream_id", "id", "role", "parts", "metadata", "token_count")
      select chosen."id", ${messageId}, 'assistant', ${JSON.stringify(parts)}::jsonb,
        jsonb_build_object('agentId', ${scope.agentId}::text, 'sentAt', now(),
          'relayedFrom', jsonb_build_object('workstreamId', ${scope.workstreamId}::text,
            'title', (select "title" from source), 'agentId', ${scope.agentId}::text)),
        ${encode(body).length}
      from chosen
      returning "workstream_id"
    ), marked as (
      update "workstreams" set "updated_at" = now(),
        "unread_since" = coalesce("unread_since", now())
      where "id" in (select "workstream_id" from sent)
      returning "id", "organization_id" as "organizationId", "owner_id" as "ownerId", "title",
        "mode", "core", "core_type" as "coreType", "agent_id" as "agentId", "status",
        "is_compacting" as "isCompacting", "created_at" as "createdAt",
        "updated_at" as "updatedAt", "unread_since" as "unreadSince"
    )
    select (select count(*) from found)::int as matches,
      (select "id" from found limit 1) as target_id,
      (select "title" from found limit 1) as target_title,
      (select "status" = 'archived' from found limit 1) as archived,
      (select busy from found limit 1) as busy,
      (select "id" = ${scope.workstreamId} from found limit 1) as same,
      (select "workstream_id" from sent) as message_id,
      (select row_to_json(marked) from marked) as summary`);
  if (!row || row.matches === 0) {
    throw new SendMessageRefused(
      `No workstream of the member has the id or title "${target}". Use the exact title or id.`,
    );
  }
  if (row.matches > 1) {
    throw new SendMessageRefused(
      `More than one workstream is called "${target}". Ask the member which one, or use its id.`,
    );
  }
  const title = row.target_title ?? target;
  if (row.same) throw new SendMessageRefused("That is this workstream: answer here instead.");
  if (row.archived) throw new SendMessageRefused(`"${title}" is archived; nothing was sent.`);
  if (row.busy || !row.message_id || !row.summary) {
    throw new SendMessageRefused(
      `"${title}" is busy with a reply right now; nothing was sent. Try again later.`,
    );
  }
  const summary = fromJson(row.summary);
  await publishWorkstreamChange(
    {
      ...summary,
      createdAt: new Date(summary.createdAt),
      updatedAt: new Date(summary.updatedAt),
      unreadSince: summary.unreadSince ? new Date(summary.unreadSince) : null,
      isRunning: false,
    },
    "updated",
  ).catch((error: unknown) => console.error("[send_message] live update failed:", error));
  return { workstreamId: row.target_id ?? "", title, messageId };
}

/** send_message, bound to the owner and the turn it acts for. */
export function sendMessageTool(scope: ToolScope) {
  return tool({
    description: DESCRIPTION,
    strict: true,
    inputSchema: sendMessageInput,
    execute: async ({ workstreamId, text }) => {
      const sent = await relayMessage({ scope, target: workstreamId, text });
      return { sent: true, workstreamId: sent.workstreamId, title: sent.title };
    },
  });
}

export function registerSendMessageTool(): void {
  // A grant covers messages to one workstream, named as the agent named it.
  declareApproval("send_message", true, {
    key: (input) => {
      const target = (input as { workstreamId?: unknown } | null)?.workstreamId;
      return typeof target === "string" ? target.trim().toLowerCase() : null;
    },
  });
  registerScopedTool("send_message", sendMessageTool);
}

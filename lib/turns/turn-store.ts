// The turns table: opening a turn (with the user message and the busy flag, in one
// transaction), reading open turns, and ending a turn together with its last events.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, rowsOf, type Tx, transaction } from "@/db/client";
import { type TurnState, turns, workstreams } from "@/db/schema";
import { config } from "@/lib/config";
import { AppError, type ErrorCode } from "@/lib/http/errors";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import { PROCESS_ID } from "@/lib/server/process-id";
import { announceSql, insertEventsSql, TurnLog } from "@/lib/stream/event-log";
import { getFanout } from "@/lib/stream/fanout-instance";
import type { LoggedChunk, LoggedEvent } from "@/lib/stream/types";
import { toStorableJson } from "@/lib/text/storable";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import type { SummaryRow } from "@/lib/workstreams/summary";
import { countTokens, type WorkstreamMessage } from "./messages";
import { rateLimitSettings } from "./rate-limit";
import {
  isOpenSql,
  OPEN_STATES,
  OPEN_STATES_LIST,
  RUNNING_STATES,
  RUNNING_STATES_LIST,
} from "./turn-state";

export type TurnRow = typeof turns.$inferSelect;
export { OPEN_STATES, RUNNING_STATES };

export async function getOpenTurn({
  workstreamId,
}: {
  workstreamId: string;
}): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(turns)
    .where(and(eq(turns.workstreamId, workstreamId), isOpenSql(turns.state)))
    .limit(1);
  return row ?? null;
}

export async function getTurn({ turnId }: { turnId: string }): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(turns).where(eq(turns.id, turnId)).limit(1);
  return row ?? null;
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

async function turnActiveError(workstreamId: string): Promise<AppError> {
  const open = await getOpenTurn({ workstreamId });
  return new AppError("conflict:turn_active", {
    details: { turnId: open?.id ?? null, state: open?.state ?? null },
  });
}

/** What opening a turn needs to know, read in the opening transaction's first statement. */
export type OpeningRead = {
  workstream: WorkstreamRow;
  /** A message with the posted id already exists: its role and its turn's state. */
  existing: { role: string; turnId: string | null; turnState: TurnState | null } | null;
  lastOffset: number;
  /** The messages since the last compaction, oldest first: what the model will see. */
  history: WorkstreamMessage[];
};

export type TurnOpening = {
  turnId: string;
  workstreamId: string;
  organizationId: string;
  userId: string;
  serverRunId: string;
  assistantMessageId: string;
  /** The id of the posted message: a message with it may exist already (a retry). */
  messageId: string;
};

/** What the caller decided from the opening read: the turn's message, agent and first events. */
export type OpeningDecision = {
  message: WorkstreamMessage;
  first: LoggedChunk[];
};

/**
 * Opens a turn in one transaction of two statements. The first takes the user's rate-limit lock
 * and reads everything the turn starts from (the owned workstream, a message posted before with
 * the same id, the log's last offset, the history); `decide` checks it and returns the user
 * message, or throws. The second, which reads only after the lock is held, counts the user's
 * recent turns, compare-and-sets the busy flag (a flag left by a run that is no longer running
 * counts as free), inserts the turn, the user message and the turn's first events. A concurrent
 * opener that slipped past the flag is stopped by the one-open-turn index.
 */
export async function openTurn<D extends OpeningDecision>(
  input: TurnOpening,
  decide: (read: OpeningRead) => Promise<D>,
): Promise<{
  turn: TurnRow;
  read: OpeningRead;
  /** The turn's log, numbered on from its first events. */
  log: TurnLog;
  events: LoggedEvent[];
  decision: D;
  /** Other servers were told of `events` by the opening statement itself. */
  announced: boolean;
}> {
  const limit = rateLimitSettings();
  try {
    return await transaction(async (tx) => {
      const read = await readOpening(tx, input, limit.turns > 0);
      if (!read) throw new AppError("not_found:workstream");
      const decision = await decide(read);
      const { message, first } = decision;
      const log = TurnLog.after(
        { id: input.turnId, workstreamId: input.workstreamId },
        read.lastOffset,
      );
      const events = log.reserve(first);
      const firstOffset = events[0]?.offset ?? read.lastOffset + 1;
      const stored = { ...message, metadata: { ...message.metadata, turnId: input.turnId } };
      const windowStart = sql`now() - ${`${limit.windowMs} milliseconds`}::interval`;
      const lease = sql`now() + ${`${config.turns.leaseMs} milliseconds`}::interval`;
      const opened = sql`exists (select 1 from opened)`;
      const announcement = (await getFanout()).announcement(events);
      // A limit of 0 turns it off; the statement's text stays the same either way.
      const allowedTurns = limit.turns > 0 ? limit.turns : null;
      const [row] = rowsOf<{ allowed: boolean; oldest: Date | string | null; opened: number }>(
        await tx.execute(sql`
          with recent as (
            select "created_at" from "turns"
            where "user_id" = ${input.userId} and "created_at" > ${windowStart}
            order by "created_at" asc limit ${Math.max(limit.turns, 1)}
          ), allowed as (
            select ${allowedTurns}::int is null or (select count(*) from recent) < ${allowedTurns} as ok
          ), claimed as (
            update "workstreams" set "active_run_id" = ${input.serverRunId}
            where "id" = ${input.workstreamId} and (select ok from allowed) and (
              "active_run_id" is null or not exists (
                select 1 from "turns" as running
                where running."server_run_id" = "workstreams"."active_run_id"
                  and running."state" in (${RUNNING_STATES_LIST}) and running."id" <> ${input.turnId}))
            returning "id"
          ), opened as (
            insert into "turns" ("id", "workstream_id", "organization_id", "user_id",
              "user_message_id", "assistant_message_id", "agent_id", "state",
              "server_run_id", "owner_id", "lease_expires_at", "first_offset")
            select ${input.turnId}, ${input.workstreamId}, ${input.organizationId}, ${input.userId},
              ${message.id}, ${input.assistantMessageId}, ${read.workstream.agentId}, 'pending',
              ${input.serverRunId}, ${PROCESS_ID}, ${lease}, ${firstOffset}::bigint
            from claimed
            returning "id"
          ), asked as (
            insert into "messages" ("workstream_id", "id", "role", "parts", "metadata", "token_count", "turn_id")
            select ${input.workstreamId}, ${message.id}, 'user', ${JSON.stringify(stored.parts)}::jsonb,
              ${JSON.stringify(stored.metadata ?? {})}::jsonb, ${countTokens(stored.parts)}, ${input.turnId}
            from opened
            on conflict do nothing
          ), logged as (${insertEventsSql(events, opened)})
          select (select ok from allowed) as allowed, (select min("created_at") from recent) as oldest,
            (select count(*) from opened)::int as opened, ${announceSql(announcement, opened)}`),
      );
      if (!row?.allowed) throw rateLimited(row?.oldest ?? null, limit.windowMs);
      // Not the 409 itself: building it reads the open turn on another connection, which must
      // not wait for a pooled connection while this one holds the user's rate-limit lock.
      if (!row.opened) throw new WorkstreamBusy();
      const turn: TurnRow = {
        ...EMPTY_TURN,
        id: input.turnId,
        workstreamId: input.workstreamId,
        organizationId: input.organizationId,
        userId: input.userId,
        userMessageId: message.id,
        assistantMessageId: input.assistantMessageId,
        agentId: read.workstream.agentId,
        state: "pending",
        serverRunId: input.serverRunId,
        ownerId: PROCESS_ID,
        firstOffset,
      };
      const history = [...read.history, ...newMessage(read, stored)];
      return {
        turn,
        read: { ...read, history },
        log,
        events,
        decision,
        announced: announcement !== null,
      };
    });
  } catch (error) {
    if (error instanceof WorkstreamBusy || isUniqueViolation(error)) {
      throw await turnActiveError(input.workstreamId);
    }
    throw error;
  }
}

/** A retried message is in the history already; a new one joins it at the end. */
function newMessage(read: OpeningRead, message: WorkstreamMessage): WorkstreamMessage[] {
  return read.existing ? [] : [message];
}

const EMPTY_TURN: TurnRow = {
  id: "",
  workstreamId: "",
  organizationId: "",
  userId: null,
  userMessageId: "",
  assistantMessageId: "",
  state: "pending",
  reason: null,
  errorCode: null,
  serverRunId: null,
  ownerId: null,
  leaseExpiresAt: null,
  stopRequestedAt: null,
  firstOffset: null,
  lastOffset: null,
  agentId: null,
  model: null,
  usage: null,
  costUsd: null,
  attempts: [],
  createdAt: new Date(0),
  startedAt: null,
  endedAt: null,
  updatedAt: new Date(0),
};

// First key of the two-key advisory lock: keeps these per-user locks apart from any other
// advisory lock the app takes (migrations, the demo seed use the one-key form).
const TURN_RATE_LOCK_SPACE = 727_002;

/**
 * The opening transaction's first statement. The user's rate-limit lock is taken here, so the
 * count in the next statement reads every turn committed while this one waited for it.
 */
async function readOpening(
  tx: Tx,
  input: { workstreamId: string; messageId: string; userId: string; organizationId: string },
  lock: boolean,
): Promise<OpeningRead | null> {
  // Spelled out: drizzle leaves columns unqualified in single-table selects.
  const workstreamId = sql.raw(`"workstreams"."id"`);
  const [row] = await tx
    .select({
      workstream: workstreams,
      locked: lock
        ? sql`(select true from pg_advisory_xact_lock(${TURN_RATE_LOCK_SPACE}, hashtext(${input.userId})))`
        : sql`true`,
      existing: sql<OpeningRead["existing"]>`(
        select json_build_object('role', m."role", 'turnId', m."turn_id", 'turnState', t."state")
        from "messages" m left join "turns" t on t."id" = m."turn_id"
        where m."workstream_id" = ${workstreamId} and m."id" = ${input.messageId})`,
      lastOffset: sql<string | number>`(
        select coalesce(max(e."offset"), 0) from "turn_events" e
        where e."workstream_id" = ${workstreamId})`,
      history: sql<WorkstreamMessage[]>`(
        select coalesce(json_agg(json_build_object('id', h."id", 'role', h."role",
          'parts', h."parts", 'metadata', h."metadata") order by h."seq"), '[]'::json)
        from "messages" h
        where h."workstream_id" = ${workstreamId} and h."seq" > coalesce((
          select a."seq" from "messages" a
          where a."workstream_id" = ${workstreamId}
            and a."id" = "workstreams"."last_compacted_message_id"), 0))`,
    })
    .from(workstreams)
    .where(
      and(
        eq(workstreams.id, input.workstreamId),
        eq(workstreams.organizationId, input.organizationId),
        eq(workstreams.ownerId, input.userId),
      ),
    );
  if (!row) return null;
  return {
    workstream: row.workstream,
    existing: parseJson(row.existing),
    lastOffset: Number(row.lastOffset),
    history: parseJson(row.history) ?? [],
  };
}

/** json columns come parsed from both drivers, but a driver may hand back text; accept both. */
function parseJson<T>(value: T | string | null): T | null {
  if (value === null) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

function rateLimited(oldest: Date | string | null, windowMs: number): AppError {
  const since = oldest ? new Date(oldest).getTime() : Date.now();
  const retryAfter = Math.max(1, Math.ceil((since + windowMs - Date.now()) / 1000));
  return new AppError("rate_limit:turn", { details: { retryAfter } });
}

/** Thrown inside openTurn's transaction; the 409 is built after it rolled back. */
class WorkstreamBusy extends Error {}

export type TurnEnd = {
  state: Extract<TurnState, "completed" | "cancelled" | "failed" | "suspended">;
  /** The sentence of `errorCode`: what the chat, the turn row and the admin runs list show. */
  reason?: string;
  errorCode?: ErrorCode;
  /** Null when the provider reported no counts: unknown, not free. */
  usage?: TokenUsage | null;
  costUsd?: number | null;
  /** The model calls the turn made, each with its outcome (and failure code). */
  attempts?: Attempt[];
};

/** The workstream as the closing statement left it, for the live update that follows. */
export type ClosedWorkstream = Omit<SummaryRow, "isRunning">;

/**
 * Ends a turn in one statement: its state and record, its last events, its answer, the busy
 * flag cleared (only if it is still this run's) and the workstream's activity time, all or
 * nothing, and only while the turn is open (and, unless `ownerCheck` is off, ours). Nobody can
 * see the turn as open after its terminal event, and a next turn cannot take offsets before this
 * turn's last one. The events are fanned out once committed.
 */
export async function closeTurn({
  turn,
  end,
  events,
  message = null,
  ownerCheck = true,
  startedWith,
}: {
  turn: Pick<TurnRow, "id" | "workstreamId" | "serverRunId">;
  end: TurnEnd;
  events: LoggedEvent[];
  /** The turn's answer, written as its assistant message. */
  message?: WorkstreamMessage | null;
  ownerCheck?: boolean;
  /** The model of a turn that became active without a write of its own (it ends at once). */
  startedWith?: string;
}): Promise<{ closed: boolean; workstream: ClosedWorkstream | null }> {
  const db = await getDb();
  const fanout = await getFanout();
  const announcement = fanout.announcement(events);
  const answer = message ? storableAnswer(message) : null;
  const isClosed = sql`exists (select 1 from closed)`;
  // Every part is always there (empty or null when unused), so the statement's text is constant.
  const [row] = rowsOf<ClosedRow>(
    await db.execute(sql`
      with closed as (
        update "turns" set "state" = ${end.state}, "reason" = ${end.reason ?? null},
          "error_code" = ${end.errorCode ?? null},
          "usage" = ${end.usage ? JSON.stringify(end.usage) : null}::jsonb,
          "cost_usd" = ${end.costUsd ?? null}::double precision,
          "attempts" = coalesce(${end.attempts?.length ? JSON.stringify(end.attempts) : null}::jsonb, "attempts"),
          "ended_at" = case when ${end.state}::text = 'suspended' then null else now() end,
          "updated_at" = now(),
          "last_offset" = coalesce(${events.at(-1)?.offset ?? null}::bigint, "last_offset"),
          "owner_id" = null, "lease_expires_at" = null,
          "started_at" = case when ${startedWith ?? null}::text is null then "started_at"
            else coalesce("started_at", now()) end,
          "model" = coalesce("model", ${startedWith ?? null}::text)
        where "id" = ${turn.id} and "state" in (${OPEN_STATES_LIST})
          and (not ${ownerCheck}::boolean or "owner_id" = ${PROCESS_ID})
        returning "id"
      ), logged as (${insertEventsSql(events, isClosed)}),
      answered as (
        insert into "messages" ("workstream_id", "id", "role", "parts", "metadata", "token_count", "turn_id")
        select ${turn.workstreamId}, ${answer?.id ?? null}::text, 'assistant', ${answer?.parts ?? null}::jsonb,
          ${answer?.metadata ?? null}::jsonb, ${answer?.tokenCount ?? null}::int, ${turn.id}
        from closed where ${answer?.id ?? null}::text is not null
        on conflict ("workstream_id", "id") do update set "parts" = excluded."parts",
          "metadata" = excluded."metadata", "token_count" = excluded."token_count", "updated_at" = now()
      ), freed as (
        update "workstreams" set "updated_at" = now(), "active_run_id" = case
          when "active_run_id" = ${turn.serverRunId ?? ""} then null else "active_run_id" end
        where "id" = ${turn.workstreamId} and exists (select 1 from closed)
        returning "id", "organization_id", "owner_id", "title", "mode", "core", "core_type",
          "agent_id", "status", "is_compacting", "created_at", "updated_at"
      )
      select (select count(*) from closed)::int as closed, freed.*,
        ${announceSql(announcement, isClosed)} as announced
      from (select 1) as one left join freed on true`),
  );
  const closed = Boolean(row?.closed);
  if (closed && events.length) {
    await fanout.publish(events, { announced: announcement !== null });
  }
  const id = row?.id;
  return { closed, workstream: closed && row && id ? closedWorkstream({ ...row, id }) : null };
}

type ClosedRow = {
  closed: number;
  id: string | null;
  organization_id: string;
  owner_id: string | null;
  title: string;
  mode: "direct" | "group";
  core: boolean;
  core_type: string | null;
  agent_id: string;
  status: "regular" | "archived";
  is_compacting: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

function closedWorkstream(row: ClosedRow & { id: string }): ClosedWorkstream {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    title: row.title,
    mode: row.mode,
    core: row.core,
    coreType: row.core_type,
    agentId: row.agent_id,
    status: row.status,
    isCompacting: row.is_compacting,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Model and tool output may hold text Postgres cannot store; it is kept with U+FFFD instead. */
function storableAnswer(message: WorkstreamMessage) {
  const parts = toStorableJson(message.parts);
  return {
    id: message.id,
    parts: JSON.stringify(parts),
    metadata: JSON.stringify(toStorableJson(message.metadata ?? {})),
    tokenCount: countTokens(parts),
  };
}

// The history each workstream's last opening read, kept in this process so that the next opening
// reads only the messages added since: without it every turn read, sent and parsed the whole
// conversation again, and a turn's first text and CPU grew with the conversation's length.
//
// What the cache holds is checked by the opening statement itself, against the rows as they are
// now: the same compaction point, and, over the held messages' range, the same number of rows
// with the same row versions (`xmin`, which every update changes). Any difference (a message
// edited by an approval, removed, compacted away, or committed late into the range by another
// server) makes the statement send the whole history instead, as it does when nothing is held.
// Nothing is trusted that the statement did not confirm, so two servers on one database each keep
// their own without coordination. The statement cannot see a change made in memory, so held
// messages are frozen: code that changed one in place would fail at once instead of sending a
// later turn a conversation that is not the stored one.
import "server-only";
import { LRUCache } from "lru-cache";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/kernel/singleton";
import { type HistoryMessage, MESSAGE_OVERHEAD_TOKENS, newestWithin } from "./context-window";
import type { WorkstreamMessage } from "./messages";

/** A history message as the opening statement sends it: with its position and row version. */
export type HistoryRow = WorkstreamMessage & {
  tokens: number;
  seq: number | string;
  v: number | string;
};

type HeldMessage = HistoryMessage & { seq: number; version: number };

type Held = {
  /** The compaction point the messages follow (0: none). */
  anchor: number;
  /** Oldest first: the newest messages that fit `historyReadCap`, at most `maxHistoryMessages`. */
  messages: readonly HeldMessage[];
  tokens: number;
};

/** What the opening statement needs to confirm the held messages (none held: all zero). */
export type HistoryCheck = {
  anchor: number;
  first: number;
  last: number;
  count: number;
  /** The sum of the held rows' versions. */
  versions: number;
};

const NOTHING_HELD: HistoryCheck = { anchor: -1, first: 0, last: 0, count: 0, versions: 0 };

const held = processSingleton(
  "history-cache",
  () =>
    new LRUCache<string, Held>({
      max: 10_000,
      maxSize: Math.max(1, config.context.historyCacheTokens),
      sizeCalculation: (entry) => Math.max(1, entry.tokens),
    }),
);

/** What is held for a workstream, and what the opening statement needs to confirm it. */
export type HistoryHeld = {
  check: HistoryCheck;
  /** The held messages as checked: used as they were, even if another opening replaces them. */
  messages: readonly HeldMessage[];
};

export function heldHistory(workstreamId: string): HistoryHeld {
  const entry = config.context.historyCacheTokens > 0 ? held.get(workstreamId) : undefined;
  const first = entry?.messages[0];
  const last = entry?.messages.at(-1);
  if (!entry || !first || !last) return { check: NOTHING_HELD, messages: [] };
  let versions = 0;
  for (const message of entry.messages) versions += message.version;
  return {
    check: {
      anchor: entry.anchor,
      first: first.seq,
      last: last.seq,
      count: entry.messages.length,
      versions,
    },
    messages: entry.messages,
  };
}

/**
 * The opening statement's answer: `delta` when it confirmed what is held (`rows` are the messages
 * after it, `older` the messages between the compaction point and the held ones), otherwise the
 * whole history that fits (`rows`) and how many older messages did not (`older`).
 */
export type HistoryRead = {
  delta: boolean;
  anchor: number | string;
  rows: HistoryRow[];
  older: number | string;
};

/**
 * The turn's history from what the statement sent and what is held: the newest messages within
 * `cap` tokens (the newest always), oldest first, and how many older ones since the compaction
 * point were left out (counting at most `maxHistoryMessages` messages in all, as the statement
 * reads at most that many). What the statement sent is held for the next opening, trimmed to
 * `readCap`, the most any turn of this workstream could take.
 */
export function historyFromRead(
  workstreamId: string,
  read: HistoryRead,
  before: HistoryHeld,
  { cap, readCap }: { cap: number; readCap: number },
): { history: HistoryMessage[]; leftOut: number } {
  const limit = config.context.maxHistoryMessages;
  const sent = read.rows.map(toHeld);
  const all = read.delta ? [...before.messages, ...sent] : sent;
  const older = Number(read.older);
  const kept = newestWithin(all, readCap, limit);
  const keptOlder = older + (all.length - kept.length);
  if (config.context.historyCacheTokens > 0 && kept.length > 0) {
    held.set(workstreamId, {
      anchor: Number(read.anchor),
      messages: kept,
      tokens: kept.reduce((sum, message) => sum + message.tokens + MESSAGE_OVERHEAD_TOKENS, 0),
    });
  } else {
    held.delete(workstreamId);
  }
  const history = newestWithin(kept, cap, limit);
  const total = Math.min(limit, keptOlder + kept.length);
  return {
    history: history.map(({ message, tokens }) => ({ message, tokens })),
    leftOut: Math.max(0, total - history.length),
  };
}

/** Forgets what is held for a workstream (tests compare a cold read with a held one). */
export function forgetHistory(workstreamId?: string): void {
  if (workstreamId === undefined) held.clear();
  else held.delete(workstreamId);
}

function toHeld({ tokens, seq, v, ...message }: HistoryRow): HeldMessage {
  return { message: frozen(message), tokens: Number(tokens), seq: Number(seq), version: Number(v) };
}

/** `value` and everything it holds made read-only (parsed JSON: plain objects and arrays only). */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

// Following a workstream's event log from an offset: read what is committed, then follow live
// signals, de-duplicating by offset, until the turn being followed ends. The same code serves a
// client on the process that runs the turn and one on any other process.
//
// A stream is bound to one turn: the turn the POST opened, or the turn open when a client
// resumes. It ends right after that turn's terminal event, even when one log read also holds
// the next turn's first events.
import "server-only";
import { readEvents } from "./event-log";
import type { Fanout, FanoutSignal } from "./fanout";
import { getFanout } from "./fanout-instance";
import { isTerminal, type LoggedEvent } from "./types";

/** Events per log read; a full read means there may be more. */
export const READ_LIMIT = 500;

export type FollowDeps = {
  fanout: () => Promise<Pick<Fanout, "subscribe">>;
  readEvents: (input: {
    workstreamId: string;
    after: number;
    limit: number;
  }) => Promise<LoggedEvent[]>;
};

const realDeps: FollowDeps = { fanout: getFanout, readEvents };

/**
 * Live signals for one workstream, queued from the moment of subscribing. Made before a turn's
 * first events are announced, it lets the response that opened the turn start from the events
 * it holds instead of reading them back from the log.
 */
export class WorkstreamSubscription {
  private readonly queue: FanoutSignal[] = [];
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;
  constructor(fanout: Pick<Fanout, "subscribe">, workstreamId: string) {
    this.unsubscribe = fanout.subscribe(workstreamId, (item) => {
      this.queue.push(item);
      this.notify();
    });
  }

  notify(): void {
    this.wake?.();
    this.wake = undefined;
  }

  take(): FanoutSignal[] {
    return this.queue.splice(0);
  }

  /** Resolves on the next signal, after `ms`, or at once if signals are waiting. */
  wait(ms: number): Promise<void> {
    if (this.queue.length > 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  close(): void {
    this.unsubscribe();
    this.notify();
  }
}

export type FollowOptions = {
  workstreamId: string;
  after: number;
  signal: AbortSignal;
  /** The id of the workstream's running (pending or active) turn, if any. */
  openTurnId: () => Promise<string | null>;
  /** The turn this stream follows, when the caller knows it (the POST that opened it). */
  turnId?: string;
  /** Safety poll for missed notifications (a dead owner, a dropped NOTIFY). */
  pollMs?: number;
  /** The fan-out and the log reader; the real ones unless a test gives its own. */
  deps?: Partial<FollowDeps>;
  /** A subscription made before `known` was announced (the turn's opener holds both). */
  subscription?: WorkstreamSubscription;
  /** Committed events right after `after` and nothing else before them: no first read needed. */
  known?: LoggedEvent[];
  /**
   * The first read, made by the caller after `subscription` was made (one statement with its
   * own checks): the running turn then and up to READ_LIMIT events after `after`.
   */
  first?: { runningTurnId: string | null; events: LoggedEvent[] };
};

/**
 * The workstream's events after `after`, in order, in the batches they became known in (a log
 * read, a commit announced): the stream sends each batch in one write.
 */
export async function* followEvents(options: FollowOptions): AsyncGenerator<LoggedEvent[]> {
  const { workstreamId, signal } = options;
  const deps = { ...realDeps, ...options.deps };
  const read = (after: number) => deps.readEvents({ workstreamId, after, limit: READ_LIMIT });
  let last = options.after;
  const subscription =
    options.subscription ?? new WorkstreamSubscription(await deps.fanout(), workstreamId);
  const wakeOnAbort = () => subscription.notify();
  signal.addEventListener("abort", wakeOnAbort, { once: true });
  // Subscribed before the first read, so nothing committed from here on is missed.
  let bound =
    options.turnId ?? (options.first ? options.first.runningTurnId : await options.openTurnId());
  let firstRead = options.first?.events;
  let readMore = false; // the catch-up read past the first page
  /** Yields `events` past `last` in order; true once the bound turn's terminal event is out. */
  let ended = false;
  function deliver(events: LoggedEvent[], { inOrder = false } = {}): LoggedEvent[] {
    const out: LoggedEvent[] = [];
    for (const event of events) {
      if (event.offset <= last) continue;
      if (inOrder && event.offset !== last + 1) break;
      last = event.offset;
      out.push(event);
      if (isTerminal(event.chunk) && (bound === null || event.turnId === bound)) {
        ended = true;
        break;
      }
    }
    return out;
  }
  try {
    if (options.known) {
      yield* nonEmpty(deliver(options.known, { inOrder: true }));
      if (ended) return;
    }
    // Catch up from the log. With no turn open, the whole backlog is replayed; it ends at the
    // bound turn's terminal event otherwise.
    for (; !options.known; ) {
      if (signal.aborted) return;
      const batch = firstRead ?? (await read(last));
      firstRead = undefined;
      if (bound === null) {
        const newest = batch.at(-1);
        if (newest) {
          last = newest.offset;
          yield batch;
        }
      } else {
        yield* nonEmpty(deliver(batch));
        if (ended) return;
      }
      if (batch.length < READ_LIMIT) break;
      readMore = true;
    }
    // Read in one snapshot with the first page, "nothing running" needs no second look.
    if (bound === null && options.first && !readMore) return;
    bound ??= await options.openTurnId();
    if (bound === null) {
      // Nothing running: what landed since the last read ends with the turn it belongs to.
      yield* nonEmpty(deliver(await read(last)));
      return;
    }
    let more = false; // the last read was full: read on without waiting
    while (!signal.aborted) {
      if (!more) await subscription.wait(options.pollMs ?? 2_000);
      if (signal.aborted) return;
      const items = subscription.take();
      let needsRead = items.length === 0; // a poll tick, or more to read
      const live: LoggedEvent[] = [];
      for (const item of items) {
        if (item.kind === "hint") {
          if (item.lastOffset > last) needsRead = true;
        } else live.push(...item.events);
      }
      live.sort((a, b) => a.offset - b.offset);
      // Live events are used only when they continue exactly where we are; a gap reads the log.
      const continues = live.find((event) => event.offset > last);
      if (!needsRead && continues && continues.offset > last + 1) needsRead = true;
      if (needsRead) {
        const events = await read(last);
        more = events.length === READ_LIMIT;
        yield* nonEmpty(deliver(events));
        if (ended) return;
        if (events.length === 0 && (await options.openTurnId()) !== bound) {
          // The turn ended (or was reaped) after this read: its last events are in the log now.
          yield* nonEmpty(deliver(await read(last)));
          return;
        }
      } else {
        yield* nonEmpty(deliver(live, { inOrder: true }));
        if (ended) return;
      }
    }
  } finally {
    subscription.close();
    signal.removeEventListener("abort", wakeOnAbort);
  }
}

/** Yields `events` when there are any: a batch is never empty. */
function* nonEmpty(events: LoggedEvent[]): Generator<LoggedEvent[]> {
  if (events.length > 0) yield events;
}

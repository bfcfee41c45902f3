import { describe, expect, it } from "vitest";
import type { FanoutSignal } from "./fanout";
import { type FollowOptions, followEvents, READ_LIMIT } from "./follow";
import { type LoggedChunk, type LoggedEvent, statusChunk } from "./types";

const WS = "ws_1";

function text(offset: number, turnId: string): LoggedEvent {
  return {
    workstreamId: WS,
    offset,
    turnId,
    chunk: { type: "text-delta", id: "t", delta: `${turnId}:${offset}` },
  };
}

function terminal(offset: number, turnId: string): LoggedEvent {
  const chunk: LoggedChunk = statusChunk(turnId, { state: "ready" });
  return { workstreamId: WS, offset, turnId, chunk };
}

/** A committed log, a fan-out and a list of the reads made, all in memory. */
function world(initial: LoggedEvent[] = [], open: string | null = null) {
  const log = [...initial];
  const reads: number[] = [];
  let listener: ((signal: FanoutSignal) => void) | undefined;
  const state = { open };
  return {
    log,
    reads,
    state,
    get subscribed() {
      return listener !== undefined;
    },
    emit(signal: FanoutSignal) {
      listener?.(signal);
    },
    follow(options: Partial<FollowOptions> = {}) {
      return followEvents({
        workstreamId: WS,
        after: 0,
        signal: new AbortController().signal,
        openTurnId: async () => state.open,
        pollMs: 60_000,
        deps: {
          fanout: async () => ({
            subscribe: (_workstreamId, next) => {
              listener = next;
              return () => {
                listener = undefined;
              };
            },
          }),
          readEvents: async ({ after, limit }) => {
            reads.push(after);
            return log.filter((event) => event.offset > after).slice(0, limit);
          },
        },
        ...options,
      });
    },
  };
}

async function offsets(batches: AsyncIterable<LoggedEvent[]>): Promise<number[]> {
  const seen: number[] = [];
  for await (const batch of batches) seen.push(...batch.map((event) => event.offset));
  return seen;
}

/** The offsets of the stream's next batch (one write to the client). */
async function nextBatch(stream: AsyncIterator<LoggedEvent[]>): Promise<number[] | undefined> {
  return (await stream.next()).value?.map((event: LoggedEvent) => event.offset);
}

describe("followEvents", () => {
  it("H2 from a first page read with the running check, nothing running ends after it with no other read", async () => {
    const w = world([text(1, "a"), terminal(2, "a")]);
    const first = { runningTurnId: null, events: [...w.log] };
    expect(await offsets(w.follow({ first }))).toEqual([1, 2]);
    expect(w.reads).toEqual([]);
  });

  it("H2 from a first page with a turn running, the stream follows it live without reading the log", async () => {
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ first: { runningTurnId: "a", events: [...w.log] } });
    expect(await nextBatch(stream)).toEqual([1]);
    w.emit({ kind: "events", events: [text(2, "a"), terminal(3, "a")] });
    expect(await offsets(stream)).toEqual([2, 3]);
    expect(w.reads).toEqual([]);
  });

  it("S6 catch-up with nothing open replays the whole log and ends", async () => {
    const w = world([text(1, "a"), terminal(2, "a"), text(3, "b"), terminal(4, "b")]);
    expect(await offsets(w.follow())).toEqual([1, 2, 3, 4]);
    expect(w.subscribed).toBe(false);
  });

  it("S6 the stream ends at its turn's terminal event and takes nothing after it", async () => {
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ turnId: "a" });
    expect(await nextBatch(stream)).toEqual([1]);
    w.emit({ kind: "events", events: [text(2, "a"), terminal(3, "a"), text(4, "b")] });
    // What one commit announced goes out as one batch.
    expect(await nextBatch(stream)).toEqual([2, 3]);
    expect((await stream.next()).done).toBe(true);
    expect(w.reads).toEqual([0]);
    expect(w.subscribed).toBe(false);
  });

  it("S6 live events after a gap are not used: the log is read from where the stream is", async () => {
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ turnId: "a" });
    expect(await nextBatch(stream)).toEqual([1]);
    w.log.push(text(2, "a"), text(3, "a"), terminal(4, "a"));
    // Offset 2 never arrived live (another process wrote it, or it was dropped).
    w.emit({ kind: "events", events: [text(3, "a"), terminal(4, "a")] });
    expect(await offsets(stream)).toEqual([2, 3, 4]);
    expect(w.reads).toEqual([0, 1]);
  });

  it("S6 a hint past the stream's offset reads the log; a stale hint does not", async () => {
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ turnId: "a" });
    expect(await nextBatch(stream)).toEqual([1]);
    w.log.push(text(2, "a"), terminal(3, "a"));
    w.emit({ kind: "hint", lastOffset: 1 });
    w.emit({ kind: "hint", lastOffset: 3 });
    expect(await offsets(stream)).toEqual([2, 3]);
    expect(w.reads).toEqual([0, 1]);
  });

  it("S6 with no signal at all, the poll reads the log; once the turn is gone the stream ends", async () => {
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ turnId: "a", pollMs: 5 });
    expect(await nextBatch(stream)).toEqual([1]);
    w.log.push(text(2, "a"));
    expect(await nextBatch(stream)).toEqual([2]);
    // Reaped elsewhere: no longer open, its last event written without a signal.
    w.state.open = null;
    w.log.push(terminal(3, "a"));
    expect(await offsets(stream)).toEqual([3]);
    expect(w.subscribed).toBe(false);
  });

  it("S6 a catch-up read spanning the POST's turn's end and the next turn's start stops at the end", async () => {
    const w = world([text(1, "a"), text(2, "a"), terminal(3, "a"), text(4, "b"), text(5, "b")]);
    w.state.open = "b";
    expect(await offsets(w.follow({ turnId: "a" }))).toEqual([1, 2, 3]);
  });

  it("S6 a resumed stream on an open turn stops at that turn's end when a read spans into the next", async () => {
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ after: 0 });
    expect(await nextBatch(stream)).toEqual([1]);
    // The follower lags: by the time it reads, turn a ended and turn b began.
    w.log.push(text(2, "a"), terminal(3, "a"), text(4, "b"), text(5, "b"));
    w.state.open = "b";
    w.emit({ kind: "hint", lastOffset: 5 });
    expect(await offsets(stream)).toEqual([2, 3]);
  });

  it("S6 older turns replayed on the way to the open turn do not end the stream", async () => {
    const w = world([text(1, "old"), terminal(2, "old"), text(3, "a")], "a");
    const stream = w.follow({ after: 0 });
    expect(await nextBatch(stream)).toEqual([1, 2, 3]);
    w.emit({ kind: "events", events: [terminal(4, "a")] });
    expect(await offsets(stream)).toEqual([4]);
  });

  it("S6 a full read is followed by the next one at once", async () => {
    const many = Array.from({ length: READ_LIMIT + 2 }, (_, index) => text(index + 2, "a"));
    const w = world([text(1, "a")], "a");
    const stream = w.follow({ turnId: "a" });
    expect(await nextBatch(stream)).toEqual([1]);
    w.log.push(...many, terminal(READ_LIMIT + 4, "a"));
    w.emit({ kind: "hint", lastOffset: READ_LIMIT + 4 });
    const rest = await offsets(stream);
    expect(rest.at(-1)).toBe(READ_LIMIT + 4);
    expect(rest).toHaveLength(READ_LIMIT + 3);
  });
});

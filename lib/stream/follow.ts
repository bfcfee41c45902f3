// Following a workstream's event log from an offset: read what is committed, then follow live
// signals, de-duplicating by offset, until the turn being followed ends. The same code serves a
// client on the process that runs the turn and one on any other process.
import { readEvents } from "./event-log";
import type { FanoutSignal } from "./fanout";
import { getFanout } from "./fanout-instance";
import { isTerminal, type LoggedEvent } from "./types";

export type FollowOptions = {
  workstreamId: string;
  after: number;
  signal: AbortSignal;
  /** Whether a turn is still open (pending or active); checked when the log is caught up. */
  isTurnOpen: () => Promise<boolean>;
  /** The caller just opened the turn (the POST): skip the first open-turn query. */
  assumeOpen?: boolean;
  /** Safety poll for missed notifications (a dead owner, a dropped NOTIFY). */
  pollMs?: number;
};

export async function* followEvents(options: FollowOptions): AsyncGenerator<LoggedEvent> {
  const { workstreamId, signal } = options;
  let last = options.after;
  const queue: FanoutSignal[] = [];
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const fanout = await getFanout();
  const unsubscribe = fanout.subscribe(workstreamId, (item) => {
    queue.push(item);
    notify();
  });
  signal.addEventListener("abort", notify, { once: true });
  try {
    // Catch up from the log.
    let caughtUp = false;
    while (!caughtUp && !signal.aborted) {
      const batch = await readEvents({ workstreamId, after: last });
      for (const event of batch) {
        last = event.offset;
        yield event;
      }
      caughtUp = batch.length < 500;
    }
    let sawTerminalAfterOpen = false;
    if (!options.assumeOpen && !(await options.isTurnOpen())) {
      // Nothing running: drain anything that landed meanwhile and stop.
      for (const event of await readEvents({ workstreamId, after: last })) {
        last = event.offset;
        yield event;
      }
      return;
    }
    while (!signal.aborted && !sawTerminalAfterOpen) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, options.pollMs ?? 2_000);
        });
      }
      if (signal.aborted) return;
      const items = queue.splice(0);
      let needsRead = items.length === 0; // a poll tick
      const live: LoggedEvent[] = [];
      for (const item of items) {
        if (item.kind === "hint") {
          if (item.lastOffset > last) needsRead = true;
        } else live.push(...item.events);
      }
      live.sort((a, b) => a.offset - b.offset);
      // Live events are used only when they continue exactly where we are; a gap reads the log.
      if (!needsRead && live.length && (live[0]?.offset ?? 0) > last + 1) needsRead = true;
      const events = needsRead ? await readEvents({ workstreamId, after: last }) : live;
      for (const event of events) {
        if (event.offset <= last) continue;
        if (event.offset !== last + 1 && !needsRead) break;
        last = event.offset;
        yield event;
        if (isTerminal(event.chunk)) sawTerminalAfterOpen = true;
      }
      if (needsRead && events.length === 0 && !(await options.isTurnOpen())) {
        for (const event of await readEvents({ workstreamId, after: last })) {
          last = event.offset;
          yield event;
        }
        return;
      }
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", notify);
  }
}

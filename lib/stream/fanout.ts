// Live fan-out of committed events. The contract is small: publish after commit, subscribe per
// workstream. In-process subscribers get the events themselves; subscribers in other server
// processes (Postgres LISTEN/NOTIFY) get a hint with the newest offset and read the log.
import { EventEmitter } from "node:events";
import type { LoggedEvent } from "./types";

export type FanoutSignal =
  | { kind: "events"; events: LoggedEvent[] }
  | { kind: "hint"; lastOffset: number };

export interface EventFanout {
  publish(events: LoggedEvent[]): Promise<void>;
  subscribe(workstreamId: string, listener: (signal: FanoutSignal) => void): () => void;
  /** Asks whichever process runs `turnId` to stop it. */
  requestStop(turnId: string): Promise<void>;
  onStopRequest(listener: (turnId: string) => void): () => void;
  close(): Promise<void>;
}

/** Delivery inside one process: the default with PGlite, and the local half of Postgres. */
export class InProcessFanout implements EventFanout {
  protected readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }

  async publish(events: LoggedEvent[]): Promise<void> {
    this.deliverLocal(events);
  }

  protected deliverLocal(events: LoggedEvent[]): void {
    const byWorkstream = new Map<string, LoggedEvent[]>();
    for (const event of events) {
      const list = byWorkstream.get(event.workstreamId) ?? [];
      list.push(event);
      byWorkstream.set(event.workstreamId, list);
    }
    for (const [workstreamId, list] of byWorkstream) {
      this.emitter.emit(`ws:${workstreamId}`, {
        kind: "events",
        events: list,
      } satisfies FanoutSignal);
    }
  }

  subscribe(workstreamId: string, listener: (signal: FanoutSignal) => void): () => void {
    const name = `ws:${workstreamId}`;
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  async requestStop(turnId: string): Promise<void> {
    this.emitter.emit("stop", turnId);
  }

  onStopRequest(listener: (turnId: string) => void): () => void {
    this.emitter.on("stop", listener);
    return () => this.emitter.off("stop", listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

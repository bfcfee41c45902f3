// Fan-out between server processes on one Postgres: local delivery as in-process, plus one
// NOTIFY per flush carrying `processId|workstreamId:offset,…`; other processes LISTEN and turn
// it into hints, so followers there read the committed log. Stop requests use a second channel.
import type { Sql } from "postgres";
import { PROCESS_ID } from "@/lib/server/process-id";
import { InProcessFanout } from "./fanout";
import type { LoggedEvent } from "./types";

const EVENTS_CHANNEL = "workstreams_events";
const STOP_CHANNEL = "workstreams_stop";
const MAX_PAYLOAD = 7000;

export class PostgresFanout extends InProcessFanout {
  private readonly unlisten: Array<() => Promise<void>> = [];
  private constructor(private readonly sql: Sql) {
    super();
  }

  static async create(sql: Sql): Promise<PostgresFanout> {
    const fanout = new PostgresFanout(sql);
    const events = await sql.listen(EVENTS_CHANNEL, (payload) => fanout.onNotify(payload));
    const stops = await sql.listen(STOP_CHANNEL, (turnId) => fanout.emitter.emit("stop", turnId));
    fanout.unlisten.push(events.unlisten, stops.unlisten);
    return fanout;
  }

  override async publish(events: LoggedEvent[]): Promise<void> {
    this.deliverLocal(events);
    const newest = new Map<string, number>();
    for (const event of events) {
      newest.set(event.workstreamId, Math.max(newest.get(event.workstreamId) ?? 0, event.offset));
    }
    let payload = "";
    const sends: string[] = [];
    for (const [workstreamId, offset] of newest) {
      const entry = `${workstreamId}:${offset}`;
      if (payload && payload.length + entry.length > MAX_PAYLOAD) {
        sends.push(payload);
        payload = "";
      }
      payload = payload ? `${payload},${entry}` : entry;
    }
    if (payload) sends.push(payload);
    await Promise.all(
      sends.map((body) => this.sql.notify(EVENTS_CHANNEL, `${PROCESS_ID}|${body}`)),
    );
  }

  private onNotify(payload: string): void {
    const bar = payload.indexOf("|");
    if (bar < 0 || payload.slice(0, bar) === PROCESS_ID) return;
    for (const entry of payload.slice(bar + 1).split(",")) {
      const colon = entry.lastIndexOf(":");
      const offset = Number(entry.slice(colon + 1));
      if (colon > 0 && Number.isFinite(offset)) {
        this.emitter.emit(`ws:${entry.slice(0, colon)}`, { kind: "hint", lastOffset: offset });
      }
    }
  }

  override async requestStop(turnId: string): Promise<void> {
    this.emitter.emit("stop", turnId);
    await this.sql.notify(STOP_CHANNEL, turnId);
  }

  override async close(): Promise<void> {
    await Promise.all(this.unlisten.map((unlisten) => unlisten()));
    await super.close();
  }
}

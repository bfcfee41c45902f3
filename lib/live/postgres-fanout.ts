// Live fan-out between server processes on one Postgres: local delivery as in-process, plus one
// NOTIFY on its own channel carrying `origin|json`. Other processes LISTEN and deliver the
// envelope to their local subscribers; the origin skips its own notifications (it delivered
// them already). NOTIFY payloads are limited to 8000 bytes: a change that does not fit (titles
// are short, so in practice none) is sent as a `refresh` event instead.
import type { Sql } from "postgres";
import { PROCESS_ID } from "@/lib/server/process-id";
import { InProcessLiveFanout } from "./fanout";
import type { LiveEnvelope } from "./types";

export const LIVE_CHANNEL = "workstreams_live";
const MAX_PAYLOAD = 7500;

export class PostgresLiveFanout extends InProcessLiveFanout {
  private unlisten: (() => Promise<void>) | undefined;
  private constructor(
    private readonly sql: Sql,
    private readonly origin: string,
  ) {
    super();
  }

  /** `origin` names this process on the channel; tests pass their own to act as two. */
  static async create(sql: Sql, origin: string = PROCESS_ID): Promise<PostgresLiveFanout> {
    const fanout = new PostgresLiveFanout(sql, origin);
    const listening = await sql.listen(LIVE_CHANNEL, (payload) => fanout.onNotify(payload));
    fanout.unlisten = listening.unlisten;
    return fanout;
  }

  override async publish(envelope: LiveEnvelope): Promise<void> {
    this.deliverLocal(envelope);
    let body = JSON.stringify(envelope);
    if (body.length > MAX_PAYLOAD) {
      body = JSON.stringify({ ...envelope, event: { type: "refresh" } } satisfies LiveEnvelope);
    }
    await this.sql.notify(LIVE_CHANNEL, `${this.origin}|${body}`);
  }

  private onNotify(payload: string): void {
    const bar = payload.indexOf("|");
    if (bar < 0 || payload.slice(0, bar) === this.origin) return;
    let envelope: LiveEnvelope;
    try {
      envelope = JSON.parse(payload.slice(bar + 1)) as LiveEnvelope;
    } catch (error) {
      console.error("[live] ignored a malformed notification:", error);
      return;
    }
    this.deliverLocal(envelope);
  }

  override async close(): Promise<void> {
    await this.unlisten?.();
    await super.close();
  }
}

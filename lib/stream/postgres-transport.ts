// Reaching the other server processes on one Postgres: NOTIFY on one channel, LISTEN for the
// others' messages. Each server names its connections `workstreams:<process>`, so a server can
// tell whether any other is connected; while none is, nothing is sent (re-checked every few
// seconds, and at once when another server says hello on the channel as it starts).
import "server-only";
import type { Sql } from "postgres";
import { applicationName } from "@/db/client";
import { errorClass } from "@/lib/kernel/error-class";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import type { Transport } from "./fanout";

export const CHANNEL = "workstreams";
const PEER_CHECK_MS = 3_000;

export class PostgresTransport implements Transport {
  hasPeers = true; // until the first check says otherwise
  readonly channel = CHANNEL;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  private constructor(
    private readonly sql: Sql,
    private readonly name: string,
    private readonly origin: string,
  ) {}

  /** `origin` is the process whose connections are this server's own (tests pass their own). */
  static async create(sql: Sql, origin: string = PROCESS_ID): Promise<PostgresTransport> {
    const transport = new PostgresTransport(sql, applicationName(origin), origin);
    await transport.checkPeers();
    transport.timer = setInterval(() => {
      transport
        .checkPeers()
        .catch((error: unknown) =>
          console.error(`[fanout] peer check failed (${errorClass(error)})`),
        );
    }, PEER_CHECK_MS);
    transport.timer.unref();
    return transport;
  }

  /** Whether another server has a connection open now. */
  async checkPeers(): Promise<boolean> {
    const [row] = await this.sql<{ peers: number }[]>`
      select count(*)::int as peers from pg_stat_activity
      where datname = current_database() and application_name like 'workstreams:%'
        and application_name <> ${this.name}`;
    this.hasPeers = (row?.peers ?? 0) > 0;
    return this.hasPeers;
  }

  async send(message: string): Promise<void> {
    await this.sql.notify(CHANNEL, message);
  }

  async listen(handler: (message: string) => void): Promise<void> {
    const listening = await this.sql.listen(CHANNEL, (message) => {
      // Anyone else on the channel is a peer, whatever the last check said.
      if (!message.startsWith(`${this.origin}|`)) this.hasPeers = true;
      handler(message);
    });
    this.unlisten = listening.unlisten;
    // Say hello, so servers that believed themselves alone start notifying at once instead of
    // at their next check (live updates have no safety poll to fall back on).
    await this.sql.notify(CHANNEL, `${this.origin}|h|`);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.();
  }
}

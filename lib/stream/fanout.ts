// Every live channel of the app, by topic: a workstream's turn events, the per-user (and
// organization metadata) live updates, and stop requests. Delivery inside this process is an
// event emitter; other server processes are reached through a transport (Postgres
// LISTEN/NOTIFY), absent on PGlite where one process owns the data dir. Publish only what is
// committed.
import { EventEmitter } from "node:events";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import {
  deliveriesOf,
  type LiveEnvelope,
  type LiveEvent,
  type LiveTopic,
  type OrganizationEvent,
  topicKey,
} from "./live";
import type { LoggedEvent } from "./types";

/** What a workstream's follower hears: the events themselves, or (from elsewhere) a hint. */
export type FanoutSignal =
  | { kind: "events"; events: LoggedEvent[] }
  | { kind: "hint"; lastOffset: number };

/** A live subscriber hears events as its topic may see them (metadata only for organizations). */
export type LiveListener = (event: LiveEvent | OrganizationEvent) => void;

export type Announcement = { channel: string; message: string };

/** How messages reach the other server processes on the same database. */
export interface Transport {
  /** False while no other server is connected: then there is nobody to tell. */
  readonly hasPeers: boolean;
  /** The NOTIFY channel: a statement may send on it itself (`pg_notify`), delivered on commit. */
  readonly channel: string;
  send(message: string): Promise<void>;
  listen(handler: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

// NOTIFY payloads are limited to 8000 bytes.
const MAX_HINTS = 7000;
const MAX_LIVE = 7500;

export class Fanout {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private constructor(
    private readonly transport: Transport | undefined,
    private readonly origin: string,
  ) {}

  /** `origin` names this process to the others; tests pass their own to act as two. */
  static async create(transport?: Transport, origin: string = PROCESS_ID): Promise<Fanout> {
    const fanout = new Fanout(transport, origin);
    await transport?.listen((message) => fanout.receive(message));
    return fanout;
  }

  subscribe(workstreamId: string, listener: (signal: FanoutSignal) => void): () => void {
    return this.on(`events:${workstreamId}`, listener);
  }

  /**
   * Announces committed events. Other processes get a hint with the newest offset per workstream
   * and read the log; `announced` says the committing statement carried that hint already.
   */
  async publish(events: LoggedEvent[], { announced = false } = {}): Promise<void> {
    const byWorkstream = new Map<string, LoggedEvent[]>();
    for (const event of events) {
      const list = byWorkstream.get(event.workstreamId) ?? [];
      list.push(event);
      byWorkstream.set(event.workstreamId, list);
    }
    for (const [workstreamId, list] of byWorkstream) {
      this.emitter.emit(`events:${workstreamId}`, {
        kind: "events",
        events: list,
      } satisfies FanoutSignal);
    }
    if (!announced) await this.sendAll(this.hints(events));
  }

  /**
   * The hint for `events` for the statement that commits them to send (`pg_notify(channel,
   * message)`), or null when nobody else listens.
   */
  announcement(events: LoggedEvent[]): Announcement | null {
    if (!this.transport?.hasPeers || events.length === 0) return null;
    const [first, ...rest] = this.hints(events);
    // More than one notification's worth is rare (a flush of hundreds of workstreams).
    if (!first || rest.length > 0) return null;
    return { channel: this.transport.channel, message: first };
  }

  subscribeLive(topic: LiveTopic, listener: LiveListener): () => void {
    return this.on(`live:${topicKey(topic)}`, listener);
  }

  async publishLive(envelope: LiveEnvelope): Promise<void> {
    this.deliverLive(envelope);
    let body = JSON.stringify(envelope);
    if (body.length > MAX_LIVE) {
      body = JSON.stringify({ ...envelope, event: { type: "refresh" } } satisfies LiveEnvelope);
    }
    await this.sendAll([`${this.origin}|l|${body}`]);
  }

  /** Asks whichever process runs `turnId` to stop it (always sent: stops are rare). */
  async requestStop(turnId: string): Promise<void> {
    this.emitter.emit("stop", turnId);
    await this.transport?.send(`${this.origin}|s|${turnId}`);
  }

  onStopRequest(listener: (turnId: string) => void): () => void {
    return this.on("stop", listener);
  }

  async close(): Promise<void> {
    await this.transport?.close();
    this.emitter.removeAllListeners();
  }

  private on<T>(key: string, listener: (value: T) => void): () => void {
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }

  private deliverLive(envelope: LiveEnvelope): void {
    for (const { key, event } of deliveriesOf(envelope)) this.emitter.emit(`live:${key}`, event);
  }

  private hints(events: LoggedEvent[]): string[] {
    const newest = new Map<string, number>();
    for (const event of events) {
      newest.set(event.workstreamId, Math.max(newest.get(event.workstreamId) ?? 0, event.offset));
    }
    const messages: string[] = [];
    let body = "";
    for (const [workstreamId, offset] of newest) {
      const entry = `${workstreamId}:${offset}`;
      if (body && body.length + entry.length > MAX_HINTS) {
        messages.push(`${this.origin}|e|${body}`);
        body = "";
      }
      body = body ? `${body},${entry}` : entry;
    }
    if (body) messages.push(`${this.origin}|e|${body}`);
    return messages;
  }

  private async sendAll(messages: string[]): Promise<void> {
    const transport = this.transport;
    if (!transport?.hasPeers) return;
    await Promise.all(messages.map((message) => transport.send(message)));
  }

  private receive(message: string): void {
    const [origin, kind] = message.split("|", 2);
    if (origin === undefined || kind === undefined || origin === this.origin) return;
    const body = message.slice(origin.length + kind.length + 2);
    if (kind === "e") {
      for (const entry of body.split(",")) {
        const colon = entry.lastIndexOf(":");
        const offset = Number(entry.slice(colon + 1));
        if (colon > 0 && Number.isFinite(offset)) {
          this.emitter.emit(`events:${entry.slice(0, colon)}`, {
            kind: "hint",
            lastOffset: offset,
          } satisfies FanoutSignal);
        }
      }
    } else if (kind === "s") {
      this.emitter.emit("stop", body);
    } else if (kind === "l") {
      try {
        this.deliverLive(JSON.parse(body) as LiveEnvelope);
      } catch (error) {
        console.error("[fanout] ignored a malformed live notification:", error);
      }
    }
  }
}

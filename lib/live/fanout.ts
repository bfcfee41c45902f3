// Live fan-out of workstream changes (the EventFanout pattern of lib/stream, for the per-user
// channel). The contract: publish after the change is committed; subscribe per topic. The
// in-process emitter is the default with PGlite (one server process per data dir) and the local
// half of the Postgres implementation.
import { EventEmitter } from "node:events";
import {
  deliveriesOf,
  type LiveEnvelope,
  type LiveEvent,
  type LiveTopic,
  type OrganizationEvent,
  topicKey,
} from "./types";

/** A subscriber hears events as its topic may see them (metadata only on the organization's). */
export type LiveListener = (event: LiveEvent | OrganizationEvent) => void;

export interface LiveFanout {
  publish(envelope: LiveEnvelope): Promise<void>;
  subscribe(topic: LiveTopic, listener: LiveListener): () => void;
  close(): Promise<void>;
}

export class InProcessLiveFanout implements LiveFanout {
  protected readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }

  async publish(envelope: LiveEnvelope): Promise<void> {
    this.deliverLocal(envelope);
  }

  protected deliverLocal(envelope: LiveEnvelope): void {
    for (const { key, event } of deliveriesOf(envelope)) this.emitter.emit(key, event);
  }

  subscribe(topic: LiveTopic, listener: LiveListener): () => void {
    const key = topicKey(topic);
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

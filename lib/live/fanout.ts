// Live fan-out of workstream changes (the EventFanout pattern of lib/stream, for the per-user
// channel). The contract: publish after the change is committed; subscribe per topic. The
// in-process emitter is the default with PGlite (one server process per data dir) and the local
// half of the Postgres implementation.
import { EventEmitter } from "node:events";
import { type LiveEnvelope, type LiveTopic, topicKey, topicKeysOf } from "./types";

export interface LiveFanout {
  publish(envelope: LiveEnvelope): Promise<void>;
  subscribe(topic: LiveTopic, listener: (envelope: LiveEnvelope) => void): () => void;
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
    for (const key of topicKeysOf(envelope)) this.emitter.emit(key, envelope);
  }

  subscribe(topic: LiveTopic, listener: (envelope: LiveEnvelope) => void): () => void {
    const key = topicKey(topic);
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

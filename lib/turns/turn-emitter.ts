// The lease holder's side of a turn's event log: numbers each chunk with the next offset of its
// workstream and hands it to the batching writer. Commit failures surface on `failure`.
import { eventWriter } from "@/lib/stream/event-log";
import {
  type LoggedChunk,
  type LoggedEvent,
  statusChunk,
  type TurnStatus,
} from "@/lib/stream/types";
import type { TurnRow } from "./turn-store";

export class TurnEmitter {
  private last: Promise<void> = Promise.resolve();
  failure: unknown = null;
  constructor(
    private readonly turn: Pick<TurnRow, "id" | "workstreamId">,
    public nextOffset: number,
  ) {}

  emit(chunk: LoggedChunk, { immediate = false } = {}): void {
    const event: LoggedEvent = {
      workstreamId: this.turn.workstreamId,
      turnId: this.turn.id,
      offset: this.nextOffset++,
      chunk,
    };
    const written = eventWriter().append(event, { immediate });
    written.catch((error: unknown) => {
      this.failure ??= error;
    });
    this.last = written;
  }

  status(status: TurnStatus, options: { immediate?: boolean } = {}): void {
    this.emit(statusChunk(this.turn.id, status), options);
  }

  /** Resolves when every event emitted so far is committed (batches commit in order). */
  async settled(): Promise<void> {
    await eventWriter().flush();
    await this.last.catch(() => undefined);
    if (this.failure) throw this.failure;
  }

  /** Offsets for events written outside the writer (the closing transaction). */
  take(count: number): number {
    const first = this.nextOffset;
    this.nextOffset += count;
    return first;
  }
}

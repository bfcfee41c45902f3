// Server-side re-chunking: text deltas leave the server in pieces of 36–72
// characters, cut at word boundaries where possible. The first text of a turn is never held
// back, and a piece that waits too long is sent as it is.
import type { UIMessageChunk } from "ai";

type Options = { min: number; max: number; emit: (chunk: UIMessageChunk) => void };

export class TextRechunker {
  private buffers = new Map<string, string>();
  private sentFirst = false;
  private pendingSince = 0;
  constructor(private readonly options: Options) {}

  push(chunk: UIMessageChunk): void {
    if (chunk.type === "text-delta") {
      const text = (this.buffers.get(chunk.id) ?? "") + chunk.delta;
      if (!this.sentFirst) {
        this.sentFirst = true;
        this.buffers.delete(chunk.id);
        this.options.emit({ type: "text-delta", id: chunk.id, delta: text });
        return;
      }
      if (this.buffers.size === 0) this.pendingSince = Date.now();
      this.buffers.set(chunk.id, text);
      this.drain(chunk.id, false);
      return;
    }
    // Anything else ends the pending text first, so order is kept.
    if (chunk.type === "text-end") this.drain(chunk.id, true);
    else this.flushAll();
    this.options.emit(chunk);
  }

  /** Sends every buffered piece now (a timer calls this so slow models never stall text). */
  flushAll(): void {
    for (const id of [...this.buffers.keys()]) this.drain(id, true);
  }

  hasPending(): boolean {
    return this.buffers.size > 0;
  }

  /** Sends buffered text that has waited at least `maxAgeMs` (a slow model must not stall). */
  flushStale(maxAgeMs: number, now = Date.now()): void {
    if (this.buffers.size > 0 && now - this.pendingSince >= maxAgeMs) this.flushAll();
  }

  private drain(id: string, all: boolean): void {
    let text = this.buffers.get(id) ?? "";
    const { min, max } = this.options;
    while (text.length >= min) {
      const cut = cutPoint(text, min, max);
      if (cut === null) break;
      this.options.emit({ type: "text-delta", id, delta: text.slice(0, cut) });
      text = text.slice(cut);
    }
    if (all && text) {
      this.options.emit({ type: "text-delta", id, delta: text });
      text = "";
    }
    if (text) this.buffers.set(id, text);
    else this.buffers.delete(id);
  }
}

/** Where to cut `text` (length ≥ min): after the last whitespace in [min, max], else at max. */
export function cutPoint(text: string, min: number, max: number): number | null {
  const window = text.slice(0, max);
  for (let index = window.length - 1; index >= min - 1; index--) {
    if (/\s/.test(window[index] ?? "")) return index + 1;
  }
  if (text.length < max) return null;
  // Never between the halves of a surrogate pair: each half alone is unstorable text.
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff && max > 1 ? max - 1 : max;
}

import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { isStorableText } from "@/lib/text/storable";
import { TextRechunker } from "./rechunk";

function run(deltas: string[]) {
  const out: UIMessageChunk[] = [];
  const rechunker = new TextRechunker({ min: 36, max: 72, emit: (chunk) => out.push(chunk) });
  rechunker.push({ type: "text-start", id: "t" });
  for (const delta of deltas) rechunker.push({ type: "text-delta", id: "t", delta });
  rechunker.push({ type: "text-end", id: "t" });
  return out.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []));
}

describe("T17 server chunks of 36–72 characters", () => {
  it("re-chunks small deltas into 36–72 character pieces without losing text", () => {
    const words = Array.from({ length: 200 }, (_, index) => `word${index}`);
    const deltas = words.map((word) => `${word} `);
    const pieces = run(deltas);
    expect(pieces.join("")).toBe(deltas.join(""));
    // The first piece is sent at once; the last may be short; the rest are within bounds.
    for (const piece of pieces.slice(1, -1)) {
      expect(piece.length).toBeGreaterThanOrEqual(36);
      expect(piece.length).toBeLessThanOrEqual(72);
    }
  });

  it("never holds back the first chunk of a turn", () => {
    const pieces = run(["Hi", " there, this is a longer continuation of the answer text."]);
    expect(pieces[0]).toBe("Hi");
  });

  it("cuts a long word-free delta at the maximum", () => {
    const pieces = run(["x", "y".repeat(200)]);
    expect(pieces.join("")).toBe(`x${"y".repeat(200)}`);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(72);
  });

  it("S2a never cuts between the halves of a surrogate pair", () => {
    const deltas = ["start ", `a${"😀".repeat(100)}`];
    const pieces = run(deltas);
    expect(pieces.join("")).toBe(deltas.join(""));
    for (const piece of pieces) expect(isStorableText(piece)).toBe(true);
  });
});

// The embedded database's bind message is built by the app (db/pglite-bind.ts); PGlite must
// receive exactly what its own protocol writer would have sent, for any parameters.
import { protocol } from "@electric-sql/pglite";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bindMessage, DESCRIBE_EXECUTE_SYNC } from "./pglite-bind";

const bytes = (message: Uint8Array) => Buffer.from(message).toString("hex");

// Text of any shape: every Unicode plane, NUL bytes, and lone surrogates (which both writers
// send as U+FFFD).
const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 5_000 }),
  fc.constantFrom("", "\u0000", "\ud800", "a\udfffb", "😀", "€uro"),
);

describe("the embedded database's bind message", () => {
  it("matches PGlite's own writer for any text and NULL parameters", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("ws_0", "ws_199", "statement_ü"),
        fc.array(fc.option(text, { nil: null }), { maxLength: 12 }),
        (statement, values) => {
          expect(bytes(bindMessage(statement, values))).toBe(
            bytes(protocol.serialize.bind({ statement, values })),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves binary parameters to PGlite's writer", () => {
    const values = ["text", new Uint8Array([0, 1, 2]), null];
    expect(bytes(bindMessage("ws_1", values))).toBe(
      bytes(protocol.serialize.bind({ statement: "ws_1", values })),
    );
  });

  it("sends the describe, execute and sync messages PGlite's writer makes", () => {
    expect(bytes(DESCRIBE_EXECUTE_SYNC)).toBe(
      bytes(
        Buffer.concat([
          protocol.serialize.describe({ type: "P" }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
      ),
    );
  });
});

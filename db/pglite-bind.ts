// The wire messages for running a named prepared statement on PGlite, built without PGlite's
// protocol writer. That writer measures every parameter's UTF-8 length in a JavaScript loop over
// its characters and writes through compiled private fields, and the messages after the bind never
// change. In a CPU profile of plain turns that writer was about a quarter of a millisecond per
// turn (the event log's JSON texts are the long parameters). Both builders produce the same
// bytes: a test compares them on arbitrary parameters.
import { protocol } from "@electric-sql/pglite";

type BindValues = NonNullable<Parameters<typeof protocol.serialize.bind>[0]>["values"];

/** Describe the portal, execute it, sync: the same bytes for every run. */
export const DESCRIBE_EXECUTE_SYNC: Uint8Array = Buffer.concat([
  protocol.serialize.describe({ type: "P" }),
  protocol.serialize.execute({}),
  protocol.serialize.sync(),
]);

/**
 * The Bind message for `statement` with text-format `values` (strings, or null for NULL), all
 * result columns in text: what `protocol.serialize.bind({ statement, values })` gives for such
 * values. Values of another kind (binary data) go through PGlite's own writer.
 */
export function bindMessage(statement: string, values: readonly unknown[]): Uint8Array {
  let valueBytes = 0;
  for (const value of values) {
    if (value === null) continue;
    if (typeof value !== "string") {
      return protocol.serialize.bind({ statement, values: [...values] as BindValues });
    }
    valueBytes += Buffer.byteLength(value, "utf8");
  }
  const count = values.length;
  const nameBytes = Buffer.byteLength(statement, "utf8");
  // After the type byte: length, portal "" and the statement's name (C strings), the parameters'
  // format codes (count, then a 0 = text for each), the parameters (count, then length and bytes
  // each; -1 for NULL), the results' format codes (none: all text).
  const length = 4 + 1 + nameBytes + 1 + 2 + 2 * count + 2 + 4 * count + valueBytes + 2;
  const out = Buffer.allocUnsafe(1 + length);
  let at = out.writeUInt8(0x42, 0); // 'B'
  at = out.writeInt32BE(length, at);
  at = out.writeUInt8(0, at);
  at += out.write(statement, at, "utf8");
  at = out.writeUInt8(0, at);
  at = out.writeUInt16BE(count, at);
  out.fill(0, at, at + 2 * count);
  at += 2 * count;
  at = out.writeUInt16BE(count, at);
  for (const value of values) {
    if (value === null) {
      at = out.writeInt32BE(-1, at);
      continue;
    }
    const text = value as string;
    const sizeAt = at;
    at += 4;
    const written = out.write(text, at, "utf8");
    out.writeInt32BE(written, sizeAt);
    at += written;
  }
  out.writeInt16BE(0, at);
  return out;
}

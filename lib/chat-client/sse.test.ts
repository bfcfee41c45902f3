import { describe, expect, it } from "vitest";
import { createSseParser } from "./sse";

describe("createSseParser", () => {
  it("reads id and data of each event", () => {
    const parser = createSseParser();
    expect(parser.push('id: 4\ndata: {"a":1}\n\nid: 5\ndata: [DONE]\n\n')).toEqual([
      { id: "4", data: '{"a":1}' },
      { id: "5", data: "[DONE]" },
    ]);
  });

  it("completes events split across arbitrary chunk boundaries, including CRLF", () => {
    const parser = createSseParser();
    const text = "id: 7\r\ndata: hello\r\n\r\ndata: world\r\n\r\n";
    const events = [...text].flatMap((char) => parser.push(char));
    expect(events).toEqual([
      { id: "7", data: "hello" },
      { id: undefined, data: "world" },
    ]);
  });

  it("joins multi-line data and ignores comments (heartbeats)", () => {
    const parser = createSseParser();
    expect(parser.push(": ping\n\ndata: a\ndata: b\n\n")).toEqual([
      { id: undefined, data: "a\nb" },
    ]);
  });

  it("does not dispatch an unterminated event", () => {
    const parser = createSseParser();
    expect(parser.push("id: 1\ndata: partial")).toEqual([]);
    parser.end();
    expect(parser.push("\n\n")).toEqual([]);
  });
});

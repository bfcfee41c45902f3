// A Server-Sent Events parser for the browser side of the turn stream: fields `id` and `data`
// (multi-line data joined with "\n"), comments ignored, an event dispatched on a blank line.
// Incremental, so it can be fed whatever byte boundaries the network delivers.

export type SseEvent = { id: string | undefined; data: string };

export type SseParser = {
  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseEvent[];
  /** Ends the input; an unterminated event is dropped, as the SSE spec says. */
  end(): void;
};

export function createSseParser(): SseParser {
  let buffer = "";
  let id: string | undefined;
  let data: string[] = [];
  let sawField = false;

  const takeLine = (line: string, out: SseEvent[]) => {
    if (line === "") {
      if (sawField && data.length > 0) out.push({ id, data: data.join("\n") });
      id = undefined;
      data = [];
      sawField = false;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      sawField = true;
    } else if (field === "id") {
      id = value;
      sawField = true;
    }
  };

  return {
    push(text) {
      buffer += text;
      const out: SseEvent[] = [];
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // A lone "\r" at the end may be the first half of "\r\n": wait for more input.
        if (match[0] === "\r" && match.index === buffer.length - 1) break;
        takeLine(buffer.slice(0, match.index), out);
        buffer = buffer.slice(match.index + match[0].length);
      }
      return out;
    },
    end() {
      buffer = "";
      id = undefined;
      data = [];
      sawField = false;
    },
  };
}

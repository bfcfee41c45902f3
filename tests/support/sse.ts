// Reading the app's SSE responses in tests: events with their offsets, the reassembled text.
export type SseEvent = { offset: number | null; data: Record<string, unknown> & { type: string } };

export async function readSse(
  response: Response,
  {
    limit,
    until,
    onEvent,
  }: {
    limit?: number;
    until?: (event: SseEvent) => boolean;
    onEvent?: (event: SseEvent) => void;
  } = {},
): Promise<{ events: SseEvent[]; done: boolean }> {
  if (!response.body) throw new Error("no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { events, done: false };
      buffer += value;
      let index = buffer.indexOf("\n\n");
      while (index >= 0) {
        const block = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        index = buffer.indexOf("\n\n");
        let offset: number | null = null;
        let data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) offset = Number(line.slice(4));
          else if (line.startsWith("data: ")) data += line.slice(6);
        }
        if (!data) continue;
        if (data === "[DONE]") return { events, done: true };
        const event = { offset, data: JSON.parse(data) } as SseEvent;
        events.push(event);
        onEvent?.(event);
        if (limit !== undefined && events.length >= limit) return { events, done: false };
        if (until?.(event)) return { events, done: false };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export function textOf(events: SseEvent[]): string {
  return events
    .filter((event) => event.data.type === "text-delta")
    .map((event) => String(event.data.delta))
    .join("");
}

export function statuses(events: SseEvent[]): string[] {
  return events
    .filter((event) => event.data.type === "data-status")
    .map((event) => String((event.data.data as { state: string }).state));
}

export function messageText(message: { parts: Array<{ type: string; text?: string }> }): string {
  return message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

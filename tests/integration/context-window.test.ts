// The context window end to end: a server started with a small window (WORKSTREAMS_CONTEXT_WINDOW)
// keeps answering a workstream whose history has long outgrown it, and every request stays
// within the window less the tokens kept for the answer.
import { describe, expect, it } from "vitest";
import type { ContextView } from "@/lib/state/schema";
import { send, userWithWorkstream } from "../support/fixtures";
import { serverProcesses } from "../support/server-processes";
import { readSse, statuses } from "../support/sse";

const { start, historyOf } = serverProcesses();

// Small enough that 8 turns of history outgrow it, large enough for the agent's instructions and
// tool definitions (about 2,800 tokens), which are never cut. A quarter is kept for the answer.
const WINDOW = 4400;
const RESERVED = WINDOW / 4;

describe("the context window", () => {
  it("I13.4 M3 a workstream whose history exceeds the window still runs, and each request stays under it", async () => {
    const server = await start({ WORKSTREAMS_CONTEXT_WINDOW: String(WINDOW) });
    try {
      const owner = await userWithWorkstream(server.url, "Window Tester");
      for (let turn = 0; turn < 8; turn += 1) {
        const events = await readSse(await send(owner, `[words:150] part ${turn} of the story`));
        expect(statuses(events.events).at(-1)).toBe("ready");
      }
      const history = await historyOf(owner);
      const answers = history.messages.filter((message) => message.role === "assistant");
      const last = answers.at(-1);
      // The offline model counts the prompt it was sent, as a provider would.
      expect(last?.metadata.inputTokens).toBeGreaterThan(0);
      expect(last?.metadata.inputTokens).toBeLessThanOrEqual(WINDOW - RESERVED);

      const view = await owner.client.json<ContextView>(
        `/api/workstreams/${owner.workstreamId}/context`,
      );
      const context = view.body.lastTurn?.context;
      expect(context?.window).toBe(WINDOW);
      expect(context?.reservedOutput).toBe(RESERVED);
      expect(context?.total).toBeLessThanOrEqual(WINDOW - RESERVED);
      const historySection = context?.sections.find((section) => section.name === "history");
      expect(historySection?.cut).toBeGreaterThan(0);
      expect(historySection?.items).toBeGreaterThan(0);
    } finally {
      await server.kill("SIGTERM");
    }
  });
});

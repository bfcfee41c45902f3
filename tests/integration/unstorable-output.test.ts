// Model and tool output that Postgres cannot store (U+0000, lone surrogates) through the real
// OpenAI provider: the turn completes, the text is shown and kept with U+FFFD in their place.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { send, userWithWorkstream } from "../support/fixtures";
import { messageText, readSse, statuses, textOf } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;
let fake: FakeOpenAI;
const ENV = {
  OPENAI_API_KEY: "sk-test",
  OPENAI_MODEL: "gpt-4.1-mini",
  MODEL_RETRY_BASE_MS: "5",
};

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  fake = await startFakeOpenAI();
  Object.assign(process.env, ENV, { OPENAI_BASE_URL: fake.url });
});
afterAll(async () => {
  for (const key of [...Object.keys(ENV), "OPENAI_BASE_URL"]) delete process.env[key];
  await fake?.close();
  await server?.close();
  await releaseTestDatabase(testDb);
});

type Part = { type: string; text?: string; input?: unknown; output?: unknown; state?: string };
type Page = { messages: Array<{ role: string; parts: Part[] }> };

describe("unstorable model and tool output", () => {
  it("S2a an answer and a tool argument with U+0000 and a lone surrogate: the turn completes, the text shows and reloads with U+FFFD", async () => {
    fake.plans = [
      { kind: "tool", name: "current_time", args: { timeZone: "Mars\u0000/\uD800Base" } },
      { kind: "text", text: "Null \u0000 here, half \uDC00 there, and the end." },
    ];
    const owner = await userWithWorkstream(server.url, "Unstorable Tester");
    const response = await send(owner, "What time is it on Mars?");
    expect(response.status).toBe(200);
    const { events, done } = await readSse(response);
    expect(done).toBe(true);
    expect(statuses(events).at(-1)).toBe("ready");
    const shown = "Null \uFFFD here, half \uFFFD there, and the end.";
    expect(textOf(events)).toBe(shown);
    const input = events.find((event) => event.data.type === "tool-input-available");
    expect(input?.data.input).toEqual({ timeZone: "Mars\uFFFD/\uFFFDBase" });

    const page = (await owner.client.json<Page>(`/api/workstreams/${owner.workstreamId}/messages`))
      .body;
    const assistant = page.messages.find((message) => message.role === "assistant");
    expect(messageText(assistant ?? { parts: [] })).toBe(shown);
    const call = assistant?.parts.find((part) => part.type === "tool-current_time");
    expect(call?.input).toEqual({ timeZone: "Mars\uFFFD/\uFFFDBase" });
    expect(call?.state).toBe("output-available");

    // The log replays what the user saw.
    const replay = await readSse(
      await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=0`),
    );
    expect(textOf(replay.events)).toBe(shown);

    // The next turn sends the kept history to the model and completes too.
    fake.plans = [{ kind: "text", text: "Still fine." }];
    const next = await readSse(await send(owner, "And now?"));
    expect(statuses(next.events).at(-1)).toBe("ready");
    expect(JSON.stringify(fake.requests.at(-1)?.messages)).toContain("half \uFFFD there");
  });
});

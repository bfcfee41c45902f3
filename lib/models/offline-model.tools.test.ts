/**
 * Tests the offline model's structured output (Output.object / array / choice) and tool calls
 * (the smallest schema-valid and explicit arguments, the follow-up report, tool choice) through
 * the real AI SDK.
 */
import { generateText, isStepCount, Output, streamText, tool } from "ai";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOfflineModel, resetOfflineModelState } from "./offline-model";

const fast = () => createOfflineModel({ chunkDelayMs: 0, firstTokenDelayMs: 0, retryAfterMs: 0 });

beforeEach(() => resetOfflineModelState());

describe("offline model: structured output and tools", () => {
  const ticket = z.object({
    title: z.string().min(3).max(60),
    priority: z.int().min(1).max(5),
    kind: z.enum(["bug", "feature", "question"]),
    tags: z.array(z.string()).min(2),
    reporter: z.object({ email: z.email(), name: z.string() }),
    dueDate: z.iso.datetime().nullable(),
  });

  it("produces the smallest JSON that validates against the zod schema", async () => {
    const prompt = "File a feature request about dark mode for the mobile app, priority 4";
    const { output } = await generateText({
      model: fast(),
      prompt,
      output: Output.object({ schema: ticket }),
    });
    expect(ticket.parse(output)).toEqual(output);
    expect(output).toMatchObject({ title: "aaa", priority: 1, kind: "bug", dueDate: null });
    expect(output.tags).toHaveLength(2);
    const streamed = streamText({
      model: fast(),
      prompt,
      output: Output.object({ schema: ticket }),
    });
    expect(await streamed.output).toEqual(output);
  });

  it("supports Output.array and Output.choice", async () => {
    const list = await generateText({
      model: fast(),
      prompt: "Three tasks for launch week",
      output: Output.array({
        element: z.object({ task: z.string(), done: z.boolean() }),
        minItems: 3,
      }),
    });
    expect(list.output.length).toBeGreaterThanOrEqual(3);
    const choice = await generateText({
      model: fast(),
      prompt: "Classify this ticket: the save button crashes the app, looks like a bug",
      output: Output.choice({ options: ["feature", "bug", "question"] }),
    });
    expect(choice.output).toBe("feature");
  });

  const weatherInput = z.object({
    city: z.string().min(2),
    unit: z.enum(["c", "f"]),
    days: z.int().min(1).max(7),
  });
  const calls: Array<z.infer<typeof weatherInput>> = [];
  const weather = tool({
    description: "Get the weather forecast for a city",
    inputSchema: weatherInput,
    execute: async (input) => {
      calls.push(input);
      return { city: input.city, temperatureC: 21, conditions: "sunny" };
    },
  });

  it("[tool:NAME] calls the tool with schema-valid args, then summarizes the result", async () => {
    calls.length = 0;
    const result = await generateText({
      model: fast(),
      prompt: "[tool:weather] What's the weather in Lisbon for 3 days?",
      tools: { weather },
      stopWhen: isStepCount(4),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.finishReason).toBe("tool-calls");
    expect(calls).toHaveLength(1);
    expect(weatherInput.parse(calls[0])).toEqual({ city: "aa", unit: "c", days: 1 });
    expect(result.text).toContain("weather");
    expect(result.text).toContain("sunny");
    expect(result.text).not.toContain("[tool:");
  });

  it("streams tool input deltas and honours [tool:NAME:JSON] args", async () => {
    calls.length = 0;
    const result = streamText({
      model: fast(),
      prompt: 'Check this [tool:weather:{"city":"Oslo","unit":"f","days":2}] please',
      tools: { weather },
      stopWhen: isStepCount(4),
    });
    const types: string[] = [];
    for await (const part of result.stream) types.push(part.type);
    expect(types).toEqual(
      expect.arrayContaining(["tool-input-start", "tool-input-delta", "tool-call", "tool-result"]),
    );
    expect(calls).toEqual([{ city: "Oslo", unit: "f", days: 2 }]);
    expect(await result.text).toContain("Oslo");
  });

  it("explains when the requested tool does not exist", async () => {
    const result = await generateText({
      model: fast(),
      prompt: "[tool:nope] hi",
      tools: { weather },
    });
    expect(result.toolCalls).toHaveLength(0);
    expect(result.text).toMatch(/`nope`.*isn't available.*`weather`/s);
  });

  it("calls a tool when the tool choice forces one, and not when tools are switched off", async () => {
    calls.length = 0;
    const forced = await generateText({
      model: fast(),
      prompt: "Forecast for Berlin, 5 days",
      tools: { weather },
      toolChoice: "required",
    });
    expect(forced.toolCalls.map((c) => c.toolName)).toEqual(["weather"]);
    expect(weatherInput.parse(calls[0])).toEqual({ city: "aa", unit: "c", days: 1 });
    const off = await generateText({
      model: fast(),
      prompt: "[tool:weather] Berlin",
      tools: { weather },
      toolChoice: "none",
    });
    expect(off.toolCalls).toHaveLength(0);
    expect(off.text).toMatch(/switched off/);
  });

  it("makes parallel calls for several [tool:…] triggers and reports tool errors", async () => {
    const failing = tool({
      description: "Always fails",
      inputSchema: z.object({ id: z.uuid() }),
      execute: async (): Promise<{ ok: boolean }> => {
        throw new Error("database unavailable");
      },
    });
    const result = await generateText({
      model: fast(),
      prompt: "[tool:weather] [tool:lookup] Rome",
      tools: { weather, lookup: failing },
      stopWhen: isStepCount(3),
    });
    expect(result.steps[0]?.toolCalls.map((c) => c.toolName)).toEqual(["weather", "lookup"]);
    expect(result.text).toContain("database unavailable");
    expect(result.text).toContain("sunny");
  });

  it("answers with schema-valid JSON after a tool result when structured output is requested", async () => {
    const summary = z.object({ city: z.string(), summary: z.string().min(10) });
    const result = await generateText({
      model: fast(),
      prompt: "[tool:weather] Weather in Madrid?",
      tools: { weather },
      output: Output.object({ schema: summary }),
      stopWhen: isStepCount(3),
    });
    expect(summary.parse(result.output)).toEqual({ city: "", summary: "aaaaaaaaaa" });
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(["weather"]);
  });
});

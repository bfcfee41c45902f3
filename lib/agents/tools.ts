// The tools agents may use, by id. Each is an AI SDK tool with a zod input schema; a tool that
// throws becomes an error result the model sees (the turn goes on).
import { type Tool, tool } from "ai";
import { z } from "zod";

export const TOOLS: Record<string, Tool> = {
  current_time: tool({
    description: "The current date and time, optionally in an IANA time zone.",
    inputSchema: z.object({ timeZone: z.string().optional() }),
    execute: async ({ timeZone }) => {
      const now = new Date();
      let zone = timeZone ?? "UTC";
      try {
        now.toLocaleString("en-US", { timeZone: zone });
      } catch {
        zone = "UTC"; // an unknown zone falls back rather than failing the call
      }
      return {
        iso: now.toISOString(),
        local: now.toLocaleString("en-US", { timeZone: zone }),
        timeZone: zone,
      };
    },
  }),
};

export function toolsFor(ids: readonly string[]): Record<string, Tool> {
  return Object.fromEntries(ids.flatMap((id) => (TOOLS[id] ? [[id, TOOLS[id]]] : [])));
}

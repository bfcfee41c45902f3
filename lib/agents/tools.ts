// The tools agents may use, by id. Each is an AI SDK tool with a zod input schema; a tool that
// throws becomes an error result the model sees (the turn goes on). Scoped tools act for the
// member who owns the workstream, so they are built per turn (see scopedToolsFor).
//
// Every input schema is built by `strictSchema` once, where it is declared: the SDK converts a bare
// zod schema to JSON Schema each time a request is built, which cost ~3.5 ms of CPU per turn; the
// helper converts once and keeps the result, in the form OpenAI's strict mode accepts (every tool
// declares `strict: true`, so the model's arguments always match the schema). Scoped tools
// declare theirs at module level too.
import { type Tool, tool } from "ai";
import { z } from "zod";
import { strictSchema } from "@/lib/models/strict-schema";
import { evaluateArithmetic } from "./arithmetic";

const DAY_MS = 86_400_000;

export const TOOLS = {
  current_time: tool({
    description:
      "Returns the current date and time, in UTC or in an IANA time zone. Use it whenever the " +
      "answer depends on today's date or the time of day; never guess the date.",
    strict: true,
    inputSchema: strictSchema(
      z.object({
        timeZone: z
          .string()
          .optional()
          .describe('An IANA time zone, e.g. "Europe/Paris"; null for UTC.'),
      }),
    ),
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
  calculate: tool({
    description:
      "Evaluates an arithmetic expression exactly: + - * / % ^, parentheses and decimals. Use " +
      "it for any sum, percentage or conversion the member will rely on instead of working it " +
      "out yourself; not for dates (days_between).",
    strict: true,
    inputSchema: strictSchema(
      z.object({
        expression: z
          .string()
          .min(1)
          .max(500)
          .describe('The expression, e.g. "(1200 * 0.15) / 4".'),
      }),
    ),
    execute: async ({ expression }) => ({ expression, value: evaluateArithmetic(expression) }),
  }),
  word_count: tool({
    description:
      "Counts the words, characters and sentences of a text. Use it to check a draft against a " +
      "length the member asked for before you hand it over; not for anything else.",
    strict: true,
    inputSchema: strictSchema(
      z.object({
        text: z.string().max(100_000).describe('The exact text, e.g. "We launch on 12 March."'),
      }),
    ),
    execute: async ({ text }) => {
      const trimmed = text.trim();
      return {
        words: trimmed ? trimmed.split(/\s+/u).length : 0,
        characters: text.length,
        sentences: trimmed ? (trimmed.match(/[.!?]+(\s|$)/gu)?.length ?? 1) : 0,
      };
    },
  }),
  days_between: tool({
    description:
      "Counts whole days and weeks from one date to another, negative when `to` is earlier. " +
      "Use it for deadlines and durations, not for times of day; call current_time first when " +
      "one of the dates is today.",
    strict: true,
    inputSchema: strictSchema(
      z.object({
        from: z.iso.date().describe('The first date, e.g. "2026-03-01".'),
        to: z.iso.date().describe('The second date, e.g. "2026-03-12".'),
      }),
    ),
    execute: async ({ from, to }) => {
      const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
      return { from, to, days, weeks: Math.trunc(days / 7) };
    },
  }),
} satisfies Record<string, Tool>;

export function toolsFor(ids: readonly string[]): Record<string, Tool> {
  const tools: Record<string, Tool> = TOOLS;
  return Object.fromEntries(
    ids.flatMap((id) => {
      const found = Object.hasOwn(tools, id) ? tools[id] : undefined;
      return found ? [[id, found]] : [];
    }),
  );
}

/** Who a scoped tool acts for: the workstream's owner in its organization, and the turn's agent. */
export type ToolScope = {
  userId: string;
  organizationId: string;
  workstreamId: string;
  agentId: string;
  /** The turn the tool is called in and the user message it answers (a memory's source). */
  turnId?: string;
  messageId?: string;
};

type ScopedToolFactory = (scope: ToolScope) => Tool;
const SCOPED_TOOLS: Record<string, ScopedToolFactory> = {};

/**
 * Registers a tool that needs to know whom it acts for. The domain that owns the action
 * registers it (lib/workstreams registers complete_onboarding), so lib/agents stays free of
 * domain imports.
 */
export function registerScopedTool(id: string, factory: ScopedToolFactory): void {
  SCOPED_TOOLS[id] = factory;
}

/** The ids of every registered scoped tool. */
export function scopedToolIds(): string[] {
  return Object.keys(SCOPED_TOOLS);
}

/** The scoped tools among `ids`, bound to `scope`. */
export function scopedToolsFor(ids: readonly string[], scope: ToolScope): Record<string, Tool> {
  return Object.fromEntries(
    ids.flatMap((id) => {
      const factory = Object.hasOwn(SCOPED_TOOLS, id) ? SCOPED_TOOLS[id] : undefined;
      return factory ? [[id, factory(scope)]] : [];
    }),
  );
}

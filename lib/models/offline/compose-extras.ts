/**
 * The offline model's other texts: the one-time "I'm the offline model" note, simulated
 * reasoning, `[words:N]` output, tool-result summaries and the "tool not available" reply.
 */
import type { LanguageModelV4ToolResultPart } from "@ai-sdk/provider";
import { summarizeContextResult } from "./context-summaries";
import { safeStringify, toolOutputText } from "./prompt";
import type { Rng } from "./random";
import { describeRequest } from "./request";
import { extractKeywords } from "./words";

/** Said once per conversation (the model checks earlier assistant messages for "offline model"). */
export function offlineNote(rng: Rng): string {
  const lead = rng.pick([
    "Heads-up: I'm the **offline model**, a built-in stand-in that works without an API key or network, so my answers are illustrative rather than researched.",
    "Quick note: you're chatting with the **offline model**. It runs locally with no API key, so treat these answers as placeholders.",
  ] as const);
  return `_${lead} To talk to a real model, set \`OPENAI_API_KEY\` in your environment (for example in \`.env.local\`) and restart the server._`;
}

export function composeReasoning(
  text: string,
  options: { afterTool: string[]; wantsCode: boolean },
): string {
  if (options.afterTool.length > 0) {
    const tools = options.afterTool.map((name) => `\`${name}\``).join(" and ");
    return `The ${tools} tool returned a result. I shouldn't call it again; instead I'll read the output, pick out the most useful fields and summarize them clearly for the user.`;
  }
  const keywords = extractKeywords(text, 3);
  const focus = keywords.length > 0 ? keywords.join(", ") : "what they need";
  const shape = describeRequest(text);
  const kind = shape.intent === "general" ? "a general" : `a ${shape.intent}`;
  return [
    shape.question
      ? `The user asks: "${shape.question}"`
      : `The user wants help with ${shape.gist}.`,
    `The important parts seem to be ${focus}.`,
    `This reads as ${kind.replace(/^a (?=[aeiou])/, "an ")} request, so a good answer restates the goal, gives a few concrete points${options.wantsCode ? ", includes a short code example" : ""} and suggests a next step.`,
    "I'll keep it practical and concise.",
  ].join(" ");
}

const WORD_POOL = (
  "river stone light garden window morning signal paper orbit canvas harbor lantern meadow " +
  "circuit marble compass echo summit forest pixel thunder velvet anchor beacon cedar delta " +
  "ember falcon glacier horizon island jasmine kernel lagoon mosaic nectar oasis prism quartz " +
  "ripple saffron tundra umbra vector willow zenith amber breeze cobalt dune fable grove"
).split(" ");

/** Exactly `count` words, starting with the user's keywords, then a seeded word pool. */
export function composeWords(count: number, text: string, rng: Rng): string {
  if (count <= 0) return "";
  const seed = extractKeywords(text, count).map((word) => word.toLowerCase().replace(/\s+/g, "-"));
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    words.push(seed[i] ?? WORD_POOL[rng.int(0, WORD_POOL.length - 1)] ?? "word");
  }
  const first = words[0] ?? "";
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(" ")}.`;
}

function shortValue(value: unknown): string {
  const text = typeof value === "string" ? value : safeStringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) {
    const items = value.slice(0, 3).map((item) => `- ${shortValue(item)}`);
    const more = value.length > 3 ? `\n- …and ${value.length - 3} more` : "";
    return value.length === 0
      ? "It returned an empty list."
      : `It returned ${value.length} item${value.length === 1 ? "" : "s"}:\n\n${items.join("\n")}${more}`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "It returned an empty object.";
    const lines = entries.slice(0, 6).map(([key, v]) => `- **${key}**: ${shortValue(v)}`);
    const more = entries.length > 6 ? `\n- …plus ${entries.length - 6} more field(s)` : "";
    return `Here's what came back:\n\n${lines.join("\n")}${more}`;
  }
  return `It returned \`${shortValue(value)}\`.`;
}

function summarizeOne(part: LanguageModelV4ToolResultPart): string {
  const name = `**\`${part.toolName}\`**`;
  const { output } = part;
  switch (output.type) {
    case "json":
      return (
        summarizeContextResult(part.toolName, output.value) ??
        `I ran ${name}. ${describeJson(output.value)}`
      );
    case "text":
    case "content": {
      const body = toolOutputText(output).trim();
      const quoted = (body.length > 400 ? `${body.slice(0, 397)}…` : body).replace(/\n/g, "\n> ");
      return body.length > 0
        ? `I ran ${name}. It said:\n\n> ${quoted}`
        : `I ran ${name}; it returned no text.`;
    }
    case "error-text":
    case "error-json":
      return `The ${name} tool reported an error: \`${shortValue(toolOutputText(output))}\`. You may want to check its input and try again.`;
    case "execution-denied":
      // A denial or an expired request: either way the call did not run.
      return `${name} was not approved${output.reason ? ` (“${output.reason}”)` : ""}, so I did not run it and will continue without it.`;
  }
}

/** Text answer after tool results: summarizes each result instead of calling the tool again. */
export function summarizeToolResults(
  parts: readonly LanguageModelV4ToolResultPart[],
  rng: Rng,
): string {
  const sections = parts.map(summarizeOne);
  const closer = rng.pick([
    "Let me know if you'd like me to dig into any of these details.",
    "Want me to do anything else with this result?",
    "Happy to take the next step from here.",
  ] as const);
  return `${sections.join("\n\n")}\n\n${closer}`;
}

/** Reply when `[tool:NAME]` names a tool the call doesn't offer (or tools are switched off). */
export function unavailableToolAnswer(
  requested: readonly string[],
  available: readonly string[],
  toolsDisabled: boolean,
): string {
  const names = requested.map((name) => `**\`${name}\`**`).join(", ");
  if (toolsDisabled)
    return `I was asked to use ${names}, but tool use is switched off for this reply.`;
  const list =
    available.length > 0
      ? `Available tools: ${available.map((n) => `\`${n}\``).join(", ")}.`
      : "No tools are enabled for this agent.";
  return `I tried to use ${names}, but ${requested.length === 1 ? "it isn't" : "they aren't"} available in this conversation. ${list}`;
}

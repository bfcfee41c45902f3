/**
 * The offline model's texts: a short answer from a few templates (with a code block when code is
 * asked for), the long variant of `[long]`, exactly N words for `[words:N]`, simulated
 * reasoning, the one-time offline notice, tool-result reports and the "tool not available" reply.
 * Every choice comes from a seeded generator, so one message always gets one answer.
 */
import type { LanguageModelV4ToolResultPart } from "@ai-sdk/provider";
import { contentWords } from "@/lib/text/salient-words";
import { toolReport } from "./answers";
import { safeStringify, toolOutputText } from "./prompt";
import type { Rng } from "./random";

type Templates = readonly [string, ...string[]];

/** Said once per conversation (the model checks earlier assistant messages for "offline model"). */
export function offlineNote(rng: Rng): string {
  const lead = rng.pick([
    "Heads-up: I'm the **offline model**, a built-in stand-in that works without an API key or network, so my answers are illustrative rather than researched.",
    "Quick note: you're chatting with the **offline model**. It runs locally with no API key, so treat these answers as placeholders.",
  ] as const);
  return `_${lead} To talk to a real model, set \`OPENAI_API_KEY\` in your environment (for example in \`.env.local\`) and restart the server._`;
}

const OPENERS: Templates = [
  "Here's a practical way to think about {k}.",
  "Good question. A few things matter most for {k}.",
  "Let's break {k} down into something you can act on.",
];
const POINTS: Templates = [
  "**Start with the goal.** Be explicit about what {k} should achieve; the constraints usually decide the approach.",
  "**Keep the first version small.** Get a minimal {k} working end to end, then iterate.",
  "**Make it concrete.** Write down one real example involving {k}; edge cases become obvious quickly.",
  "**Check the edges.** Look at how {k} behaves with empty, huge or unexpected input.",
  "**Know the trade-offs.** Every option for {k} costs something: time, complexity or flexibility.",
  "**Write it down.** A short note on why you chose this approach for {k} will save you time later.",
];
const CLOSERS: Templates = [
  "Want me to go deeper on any of these points?",
  "Tell me more about your setup and I'll tailor the next step.",
  "If you share what you've tried with {k}, I can make this more specific.",
];
const SECTIONS = ["Background", "How it works", "Options", "Trade-offs", "Pitfalls", "Next steps"];

const CODE_REQUEST =
  /\b(code|function|snippet|script|implement|sql|query|class|component|typescript|javascript|python|bash|program)\b/i;

function keywordsOf(text: string): string {
  const words = contentWords(text, 3);
  const last = words.pop() ?? "this";
  return words.length > 0 ? `${words.join(", ")} and ${last}` : last;
}

function fill(template: string, keywords: string): string {
  return template.replaceAll("{k}", keywords);
}

/** A fenced starting point: Python when the message names it, else TypeScript. */
function codeBlock(text: string): string {
  const name =
    contentWords(text, 6)
      .filter((word) => /^[a-z][a-z0-9]*$/i.test(word) && !CODE_REQUEST.test(word))
      .slice(0, 2)
      .map((word, i) => (i === 0 ? word.toLowerCase() : word[0]?.toUpperCase() + word.slice(1)))
      .join("") || "example";
  if (/\bpython\b/i.test(text)) {
    return `\`\`\`python\ndef ${name}(value: str) -> str:\n    """A starting point to adapt."""\n    if not value.strip():\n        raise ValueError("${name}: value must not be empty")\n    return value.strip()\n\`\`\``;
  }
  return `\`\`\`ts\n/** ${name}: a starting point to adapt. */\nexport function ${name}(input: string): string {\n  const value = input.trim();\n  if (value.length === 0) throw new Error("${name}: input must not be empty");\n  return value;\n}\n\`\`\``;
}

/** The everyday answer: an opening, three points (or a code block), a closing question. */
export function composeAnswer(text: string, rng: Rng): string {
  const keywords = keywordsOf(text);
  const opener = fill(rng.pick(OPENERS), keywords);
  const body = CODE_REQUEST.test(text)
    ? `${codeBlock(text)}\n\nAdapt the names and the checks to your case; it is a starting point, not a finished solution.`
    : rng
        .sample(POINTS, 3)
        .map((point) => `- ${fill(point, keywords)}`)
        .join("\n");
  return `${opener}\n\n${body}\n\n${fill(rng.pick(CLOSERS), keywords)}`;
}

/** `[long]`: about 3–4k characters in several sections. */
export function composeLongAnswer(text: string, rng: Rng): string {
  const keywords = keywordsOf(text);
  const sections = SECTIONS.map((title) => {
    const points = rng.sample(POINTS, 4).map((point) => `- ${fill(point, keywords)}`);
    return `## ${title}\n\n${fill(rng.pick(OPENERS), keywords)}\n\n${points.join("\n")}`;
  });
  const code = CODE_REQUEST.test(text) ? [`## Code\n\n${codeBlock(text)}`] : [];
  return [`# ${keywords[0]?.toUpperCase()}${keywords.slice(1)}`, ...sections, ...code].join("\n\n");
}

const WORD_POOL = (
  "river stone light garden window morning signal paper orbit canvas harbor lantern meadow " +
  "circuit marble compass echo summit forest pixel thunder velvet anchor beacon cedar delta " +
  "ember falcon glacier horizon island jasmine kernel lagoon mosaic nectar oasis prism quartz " +
  "ripple saffron tundra umbra vector willow zenith amber breeze cobalt dune fable grove"
).split(" ");

/** Exactly `count` words: the message's own words first, then a seeded pool. */
export function composeWords(count: number, text: string, rng: Rng): string {
  if (count <= 0) return "";
  const own = contentWords(text, count).map((word) => word.toLowerCase());
  const words = Array.from(
    { length: count },
    (_, i) => own[i] ?? WORD_POOL[rng.int(0, WORD_POOL.length - 1)] ?? "word",
  );
  const first = words[0] ?? "";
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(" ")}.`;
}

export function composeReasoning(text: string, results: ReadonlyArray<{ toolName: string }>) {
  if (results.length > 0) {
    const tools = results.map((result) => `\`${result.toolName}\``).join(" and ");
    return `The ${tools} tool returned a result. I shouldn't call it again; instead I'll read the output and summarize it clearly for the user.`;
  }
  return `The user wants help with ${keywordsOf(text)}. A good answer restates the goal, gives a few concrete points and suggests a next step. I'll keep it practical and concise.`;
}

function shortValue(value: unknown): string {
  const text = typeof value === "string" ? value : safeStringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** A result no tool owner reports: its first fields (or items), one line each. */
function describeJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return `It returned \`${shortValue(value)}\`.`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "It returned nothing.";
  const lines = entries.slice(0, 6).map(([key, v]) => `- **${key}**: ${shortValue(v)}`);
  const more = entries.length > 6 ? `\n- …and ${entries.length - 6} more` : "";
  return `Here's what came back:\n\n${lines.join("\n")}${more}`;
}

function reportOne({ toolName, output }: LanguageModelV4ToolResultPart): string {
  const name = `**\`${toolName}\`**`;
  if (output.type === "json") {
    return toolReport(toolName)?.(output.value) ?? `I ran ${name}. ${describeJson(output.value)}`;
  }
  if (output.type === "execution-denied") {
    // A denial or an expired request: either way the call did not run.
    return `${name} was not approved${output.reason ? ` (“${output.reason}”)` : ""}, so I did not run it and will continue without it.`;
  }
  const body = toolOutputText(output).trim();
  if (output.type !== "text" && output.type !== "content") {
    return `The ${name} tool reported an error: \`${shortValue(body)}\`. You may want to check its input and try again.`;
  }
  if (body.length === 0) return `I ran ${name}; it returned no text.`;
  const quoted = (body.length > 400 ? `${body.slice(0, 397)}…` : body).replace(/\n/g, "\n> ");
  return `I ran ${name}. It said:\n\n> ${quoted}`;
}

/** The answer after tool results: each result reported, never the tool called again. */
export function reportToolResults(
  parts: readonly LanguageModelV4ToolResultPart[],
  rng: Rng,
): string {
  const closer = rng.pick([
    "Let me know if you'd like me to dig into any of these details.",
    "Want me to do anything else with this result?",
    "Happy to take the next step from here.",
  ] as const);
  return `${parts.map(reportOne).join("\n\n")}\n\n${closer}`;
}

/** The reply when `[tool:NAME]` names a tool the call does not offer (none when tools are off). */
export function unavailableToolAnswer(
  requested: ReadonlyArray<{ name: string }>,
  offered: ReadonlyArray<{ name: string }> | undefined,
): string {
  const names = requested.map(({ name }) => `**\`${name}\`**`).join(", ");
  if (!offered) return `I was asked to use ${names}, but tool use is switched off for this reply.`;
  const list =
    offered.length > 0
      ? `Available tools: ${offered.map(({ name }) => `\`${name}\``).join(", ")}.`
      : "No tools are enabled for this agent.";
  return `I tried to use ${names}, but ${requested.length === 1 ? "it isn't" : "they aren't"} available in this conversation. ${list}`;
}

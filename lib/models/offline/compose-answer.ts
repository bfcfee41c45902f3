/**
 * Composes the offline model's markdown answers: a short answer that restates and engages with
 * the request (points, a table for comparisons, a code block when code is asked for) and a long
 * multi-section variant for `[long]`. All choices come from the seeded RNG, so output is
 * deterministic for a given input.
 */
import { codeSample } from "./code-samples";
import type { Rng } from "./random";
import { describeRequest, type RequestShape } from "./request";
import { detectCodeLanguage, extractKeywords, identifierFrom, subjectKeywords } from "./words";

export interface AnswerInput {
  /** The user's message with triggers removed. */
  text: string;
  previousUserTexts: readonly string[];
  rng: Rng;
}

type Templates = readonly [string, ...string[]];

const POINTS: Templates = [
  "**Start with the goal.** Be explicit about what {k} should achieve; the constraints usually decide the approach.",
  "**Keep the first version small.** Get a minimal {k} working end to end, then iterate.",
  "**Make it concrete.** Write down one real example involving {k}; edge cases become obvious quickly.",
  "**Check the edges.** Look at how {k} behaves with empty, huge or unexpected input.",
  "**Measure, then optimize.** If {k} feels slow, profile first; the bottleneck is rarely where you expect.",
  "**Keep it easy to change.** Small pieces, clear names and a test or two around {k} pay off later.",
  "**Know the trade-offs.** Every option for {k} costs something: time, complexity or flexibility.",
  "**Lean on defaults.** The standard approach to {k} is usually good enough to start with.",
  "**Write it down.** A short note on why you chose this approach for {k} will save future you some time.",
];

const EXPLAIN_POINTS: Templates = [
  "**The short version.** {K} is easiest to understand by looking at what it does, not just what it is.",
  "**Why it matters.** Once {k} clicks, a lot of related ideas fall into place.",
  "**A concrete picture.** Imagine {k} in a situation you already know; the abstract parts get much easier.",
  "**Common confusion.** People often mix up {k} with nearby ideas; the difference is usually in the details.",
  "**Going deeper.** To really understand {k}, look at the edge cases where the simple explanation stops working.",
];

const IDEA_POINTS: Templates = [
  "**Start small.** A simple take on {k} that you could try this week.",
  "**Go bold.** A more ambitious version built around {k}, if you have the time.",
  "**Mix it up.** Combine {k} with something unexpected to make it memorable.",
  "**Keep it practical.** The low-effort option: reuse what you already have for {k}.",
  "**Ask around.** Others have likely tried something similar with {k}; borrow what worked.",
];

function pointPool(shape: RequestShape): Templates {
  if (shape.action) return POINTS;
  if (shape.intent === "list" || shape.intent === "write") return IDEA_POINTS;
  if (shape.intent === "explain" || (shape.intent === "general" && shape.question))
    return EXPLAIN_POINTS;
  return POINTS;
}

const CLOSERS: Templates = [
  "If you share a bit more about {k} (your constraints, or what you've tried), I can make this more specific.",
  "Want me to go deeper on any of these points?",
  "Tell me more about your setup and I'll tailor the next step.",
];

const STEPS: Templates = [
  "Write down the outcome you want in one sentence, so you know when you're done.",
  "List the inputs, outputs and constraints around {k}.",
  "Sketch the simplest version that could possibly work, and resist adding extras yet.",
  "Try it on one realistic example and note what breaks or feels awkward.",
  "Handle the edge cases you found: empty input, very large input, and failures along the way.",
  "Add a small test or checklist so {k} keeps working as things change.",
];

const PITFALLS: Templates = [
  "**Over-engineering early.** Solving problems {k} doesn't have yet makes everything slower to change.",
  "**Skipping the example.** Abstract plans hide the details that matter most.",
  "**Ignoring failure modes.** Decide up front what should happen when {k} goes wrong.",
  "**Optimizing blind.** Without a measurement you're guessing, and guesses about performance are often wrong.",
  "**Hidden assumptions.** Write them down; they are usually the first thing to break.",
];

function fill(template: string, keywords: readonly string[], index = 0): string {
  const k = keywords.length > 0 ? `**${keywords[index % keywords.length]}**` : "it";
  const capitalized = k.startsWith("**") ? `**${k.charAt(2).toUpperCase()}${k.slice(3)}` : k;
  return template.replaceAll("{K}", capitalized).replaceAll("{k}", k);
}

function bullets(items: readonly string[], numbered: boolean): string {
  return items.map((item, i) => `${numbered ? `${i + 1}.` : "-"} ${item}`).join("\n");
}

function keywordMention(keywords: readonly string[]): string {
  const [k1, k2] = keywords;
  if (k1 && k2) return ` The key pieces seem to be **${k1}** and **${k2}**.`;
  return k1 ? ` The key piece seems to be **${k1}**.` : "";
}

/** First sentence: restates the request when its shape is recognisable. */
function opener(shape: RequestShape, keywords: readonly string[], rng: Rng): string {
  const { intent, action, subject, question, pair } = shape;
  if (intent === "compare" && pair) {
    return rng.pick([
      `Choosing between **${pair[0]}** and **${pair[1]}** mostly comes down to trade-offs.`,
      `**${pair[0]}** and **${pair[1]}** both have their place; the right pick depends on what you value most.`,
    ] as const);
  }
  if ((intent === "code" || intent === "write") && subject) {
    return intent === "code"
      ? rng.pick([
          `Here's a small, self-contained starting point for ${subject}.`,
          `Sure! Below is a minimal sketch of ${subject} that you can adapt.`,
        ] as const)
      : rng.pick([
          `Here's a first draft of ${subject}; tweak the tone as you like.`,
          `Sure! A draft of ${subject} to get you started:`,
        ] as const);
  }
  if (intent === "list" && subject) {
    return rng.pick([
      `Here are a few ideas ${subject}:`,
      `Happy to brainstorm! Some options ${subject}:`,
    ] as const);
  }
  if (intent === "explain" && subject) {
    return rng.pick([
      `Here's a quick mental model for **${subject}**.`,
      `Let's unpack **${subject}**.`,
    ] as const);
  }
  if (intent === "summarize" && subject) return `Here's the short version of ${subject}:`;
  if (action) {
    return rng.pick([
      `Here's a practical way to ${action}.`,
      `Sure! If you want to ${action}, it helps to split the work into a few small steps.`,
      `Good question! Here's how I'd ${action}, step by step.`,
    ] as const);
  }
  if (question) {
    return rng.pick([
      `Good question! *${question}* Here's how I'd think about it.`,
      `*${question}* Let's work through it.`,
    ] as const);
  }
  const lead = rng.pick([
    "Happy to help with that.",
    "Let's think this through together.",
    "Interesting! Here's how I'd look at it.",
  ] as const);
  return `${lead}${keywordMention(keywords)}`;
}

function goalSentence(shape: RequestShape, keywords: readonly string[]): string {
  if (shape.pair)
    return `The choice here is between **${shape.pair[0]}** and **${shape.pair[1]}**.`;
  if (shape.action) return `The goal here is to ${shape.action}.`;
  if (shape.subject)
    return `The focus here is ${shape.intent === "list" ? "ideas " : ""}${shape.subject}.`;
  if (shape.question) return `The question is: *${shape.question}*`;
  return keywords[0] ? `The focus here is **${keywords[0]}**.` : "Let's start from the basics.";
}

function comparisonTable(a: string, b: string, rng: Rng): string {
  const swap = rng.next() < 0.5;
  const rows: Array<[string, string, string]> = [
    ["Best for", "getting started quickly", "fine-grained control"],
    ["Learning curve", "gentle", "steeper, but pays off"],
    ["Trade-off", "less flexible at the edges", "more setup up front"],
  ];
  const body = rows
    .map(([label, x, y]) => `| ${label} | ${swap ? y : x} | ${swap ? x : y} |`)
    .join("\n");
  return `| | **${a}** | **${b}** |\n|---|---|---|\n${body}`;
}

function codeFor(text: string, shape: RequestShape, keywords: readonly string[]): string {
  const describe = shape.subject ?? shape.action ?? shape.gist;
  return codeSample({
    language: detectCodeLanguage(text),
    identifier: identifierFrom(subjectKeywords(text), "solve"),
    topic: describe.charAt(0).toUpperCase() + describe.slice(1),
    keyword: keywords[0] ?? "your case",
  });
}

function draftFor(keywords: readonly string[], rng: Rng): string {
  const [k1 = "this", k2 = "the next steps"] = keywords;
  const greeting = rng.pick(["Hi there,", "Hello,", "Hi all,"] as const);
  return [
    `> ${greeting}`,
    ">",
    `> I wanted to share a quick note about ${k1}. The main thing to keep in mind is how it affects ${k2}, and what we should do next.`,
    ">",
    "> Happy to talk it through whenever suits you.",
    ">",
    "> Best,",
    "> Alex",
  ].join("\n");
}

function greetingAnswer(): string {
  return [
    "Hi! 👋 I'm ready when you are. I can help you plan, explain, draft or sketch some code; just tell me what you're working on.",
    "",
    "A few things you can try:",
    "- Ask a question, like *“How should I structure a small web app?”*",
    "- Ask for code, like *“Write a TypeScript function that slugifies a title”*",
    "- Add `[long]` for a longer answer, or `[reason]` to see my reasoning first",
  ].join("\n");
}

function contextLine(input: AnswerInput, keywords: readonly string[]): string | undefined {
  const previous = input.previousUserTexts.at(-1);
  if (!previous) return undefined;
  const lower = new Set(keywords.map((k) => k.toLowerCase()));
  const earlier = extractKeywords(previous, 3).find((word) => !lower.has(word.toLowerCase()));
  return earlier ? `This builds nicely on what we discussed about **${earlier}**.` : undefined;
}

/** The regular (short) answer. */
export function composeAnswer(input: AnswerInput): string {
  const { text, rng } = input;
  const shape = describeRequest(text);
  if (shape.intent === "greeting" || text.length === 0) return greetingAnswer();
  if (shape.intent === "thanks") {
    return rng.pick([
      "You're welcome! 😊 Anything else you'd like to dig into?",
      "Glad that helped! Let me know if there's anything else.",
    ] as const);
  }
  const keywords = extractKeywords(text, 6);
  const context = contextLine(input, keywords);
  const blocks = [`${opener(shape, keywords, rng)}${context ? ` ${context}` : ""}`];
  if (shape.pair) blocks.push(comparisonTable(shape.pair[0], shape.pair[1], rng));
  if (shape.intent === "write") blocks.push(draftFor(keywords, rng));
  const points = rng.sample(pointPool(shape), shape.intent === "code" ? 2 : rng.int(3, 4));
  blocks.push(
    bullets(
      points.map((p, i) => fill(p, keywords, i)),
      shape.intent === "howto",
    ),
  );
  if (shape.intent === "code") blocks.push(codeFor(text, shape, keywords));
  blocks.push(fill(rng.pick(CLOSERS), keywords));
  return blocks.join("\n\n");
}

/** The long answer for `[long]`: several sections, roughly 3–4k characters. */
export function composeLongAnswer(input: AnswerInput): string {
  const { text, rng } = input;
  const shape = describeRequest(text);
  const keywords = extractKeywords(text, 6);
  const [k1 = "the goal", k2 = "the constraints", k3 = "the details"] = keywords;
  const checklist = [
    "The goal is written down in one sentence",
    "A minimal version works end to end",
    "Edge cases and failures have a plan",
    "There's at least one test or a repeatable check",
    "Decisions are documented for whoever comes next",
  ];
  const sections = [
    opener(shape, keywords, rng),
    "## Overview",
    `${goalSentence(shape, keywords)} At first glance it looks simple, but the details decide whether it works well in practice. The core of it is understanding how **${k1}** and **${k2}** fit together, and where **${k3}** comes in. Below you'll find the key ideas, a step-by-step approach, an example, and the pitfalls I'd watch out for. None of this is tied to one tool; the same reasoning applies whatever stack you use.`,
    "## Key ideas",
    bullets(
      rng.sample(POINTS, 4).map((p, i) => fill(p, keywords, i)),
      false,
    ),
    "## Step by step",
    bullets(
      STEPS.map((step, i) => fill(step, keywords, i)),
      true,
    ),
    "## Example",
    codeFor(text, shape, keywords),
    "## Common pitfalls",
    bullets(
      rng.sample(PITFALLS, 4).map((p, i) => fill(p, keywords, i)),
      false,
    ),
    "## Checklist",
    bullets(
      checklist.map((item) => `[ ] ${item}`),
      false,
    ),
    "## Going further",
    `When the first version works, the interesting questions begin. How will **${k1}** behave as it grows? What would a teammate need to know to change it safely? Which part would you rewrite first if you had a free afternoon? Answering these early keeps small problems from turning into big ones. It also helps to keep a short log of what you tried and what you learned about **${k2}**; future decisions get much faster when the reasoning is written down next to the work itself.`,
    "## Next steps",
    `Start with the smallest slice you can finish today, then come back to the checklist above. Once the basics around **${k1}** work, revisit the trade-offs: what would you change if the load doubled, or if someone new had to maintain it? ${fill(rng.pick(CLOSERS), keywords)}`,
  ];
  return sections.join("\n\n");
}

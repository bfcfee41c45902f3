/**
 * The demo's plain requests: words the offline model turns into a context tool call (the
 * workstream state, the execution plan, the memory block, history search, memories, skills, a
 * message to another workstream, a question to a specialist of a group workstream), so a member
 * without an API key can see the tools work: "record the decision: use Postgres because ops know
 * it" records a decision. They are what the chat's "See all triggers" dialog documents, and the
 * only phrases the offline model acts on; any other message is answered, never acted on. A
 * request counts only at the very start of a message (after an optional "please"). Registered
 * with the offline model by ./offline-answers.ts; a real model chooses tools by itself.
 */

export interface ContextRequest {
  /** The request as the member types it (placeholders in CAPS). */
  trigger: string;
  /** The tool it calls, if the agent has it. */
  tool: string;
  /** What it does, in one sentence. */
  effect: string;
}

type Rule = ContextRequest & {
  /** Matched against the message after "please"; the group `text` is the request's text. */
  pattern: RegExp;
  args: (text: string, title: string | undefined) => unknown;
};

const STEP_SEPARATOR = /\s*(?:;|\n)\s*/;
const PLAN_TITLE_CHARS = 80;

function addTo(list: string, item: (text: string) => Record<string, unknown>) {
  return (text: string) => ({ [list]: { add: [item(text)] } });
}

/** "X because Y" → the decision X with rationale Y (the first "because" splits them). */
function decision(text: string): Record<string, unknown> {
  const at = text.search(/\s+because\s+/i);
  if (at < 0) return { text };
  const rationale = text.slice(at).replace(/^\s+because\s+/i, "");
  return { text: text.slice(0, at).trim(), rationale: rationale.trim() };
}

/** "[for TITLE:] one; two; three" → a new plan whose first step is under way. */
function plan(text: string, named: string | undefined): unknown {
  const steps = text
    .split(STEP_SEPARATOR)
    .map((step) => step.trim())
    .filter((step) => step.length > 0);
  const joined = steps.join(", ");
  const title =
    named?.trim() ||
    (joined.length > PLAN_TITLE_CHARS ? `${joined.slice(0, PLAN_TITLE_CHARS - 1)}…` : joined);
  return {
    title,
    status: "active",
    steps: steps.map((step, index) => ({
      title: step,
      status: index === 0 ? "in_progress" : "pending",
    })),
  };
}

/** "to compare A and B" → "Compare A and B": the request as a question to the specialist. */
function question(text: string): string {
  const asked = text.replace(/^to\s+/i, "");
  return asked.charAt(0).toUpperCase() + asked.slice(1);
}

function withoutEndMark(text: string): string {
  return text.replace(/[\s.?!]+$/u, "");
}

const RULES: readonly Rule[] = [
  {
    trigger: "record the decision: X because Y",
    tool: "update_workstream_state",
    effect: "Records decision X (rationale Y) in the workstream state.",
    pattern: /^record (?:the |a |this )?decision:\s*(?<text>[\s\S]+)/i,
    args: addTo("keyDecisions", decision),
  },
  {
    trigger: "decide: X because Y",
    tool: "update_workstream_state",
    effect: "Records decision X (rationale Y) in the workstream state.",
    pattern: /^decide:\s*(?<text>[\s\S]+)/i,
    args: addTo("keyDecisions", decision),
  },
  {
    trigger: "add a task: X",
    tool: "update_workstream_state",
    effect: "Adds open task X to the workstream state.",
    pattern: /^add (?:a )?task:\s*(?<text>[\s\S]+)/i,
    args: addTo("tasks", (text) => ({ text })),
  },
  {
    trigger: "add a risk: X",
    tool: "update_workstream_state",
    effect: "Adds risk X to the workstream state.",
    pattern: /^add (?:a )?risk:\s*(?<text>[\s\S]+)/i,
    args: addTo("risks", (text) => ({ text })),
  },
  {
    trigger: "add an open question: X",
    tool: "update_workstream_state",
    effect: "Adds open question X to the workstream state.",
    pattern: /^add (?:an )?(?:open )?question:\s*(?<text>[\s\S]+)/i,
    args: addTo("openQuestions", (text) => ({ text })),
  },
  {
    trigger: "add a constraint: X",
    tool: "update_workstream_state",
    effect: "Adds binding constraint X to the workstream state.",
    pattern: /^add (?:a )?constraint:\s*(?<text>[\s\S]+)/i,
    args: addTo("activeConstraints", (text) => ({ text })),
  },
  {
    trigger: "plan: STEP; STEP; STEP",
    tool: "update_plan",
    effect: "Starts an execution plan with these steps, the first one in progress.",
    pattern: /^plan:\s*(?<text>[\s\S]+)/i,
    args: plan,
  },
  {
    trigger: "make a plan [for TITLE]: STEP; STEP; STEP",
    tool: "update_plan",
    effect: "Starts an execution plan (titled TITLE if given) with these steps.",
    pattern: /^make a plan(?:\s+for\s+(?<title>[^:]+?))?:\s*(?<text>[\s\S]+)/i,
    args: plan,
  },
  {
    trigger: "remember this: X",
    tool: "add_memory_note",
    effect: "Adds note X to the workstream's memory block.",
    pattern: /^remember this:\s*(?<text>[\s\S]+)/i,
    args: (text) => ({ text }),
  },
  {
    trigger: "note: X",
    tool: "add_memory_note",
    effect: "Adds note X to the workstream's memory block.",
    pattern: /^note:\s*(?<text>[\s\S]+)/i,
    args: (text) => ({ text }),
  },
  {
    trigger: "remember that X",
    tool: "remember",
    effect: "Remembers X for the member's later workstreams (a memory of theirs).",
    pattern: /^remember that\s+(?<text>[\s\S]+)/i,
    args: (text) => ({ text }),
  },
  {
    trigger: "remember for the team that X",
    tool: "remember",
    effect: "Asks to share X with the organization: it is saved once you approve.",
    pattern:
      /^remember for (?:the |our |my )?(?:team|organi[sz]ation)(?: that)?[\s,:]+(?<text>[\s\S]+)/i,
    args: (text) => ({ text, scope: "organization" }),
  },
  {
    trigger: "recall X",
    tool: "recall",
    effect: "Searches the member's and the organization's memories for X.",
    pattern: /^recall\s+(?<text>[\s\S]+)/i,
    args: (text) => ({ query: withoutEndMark(text) }),
  },
  {
    trigger: "what do you remember about X",
    tool: "recall",
    effect: "Searches the member's and the organization's memories for X.",
    pattern: /^what do you remember about\s+(?<text>[\s\S]+)/i,
    args: (text) => ({ query: withoutEndMark(text) }),
  },
  {
    trigger: "use the skill X",
    tool: "use_skill",
    effect: "Looks up skill X (the member's or the organization's) and follows its steps.",
    pattern: /^use (?:the |my |our )?skill\s+(?<text>[\s\S]+)/i,
    args: (text) => ({ name: withoutEndMark(text).replace(/^["“']|["”']$/gu, "") }),
  },
  {
    trigger: "tell my TITLE workstream: X",
    tool: "send_message",
    effect: "Asks to send X to your workstream titled TITLE; it is sent once you approve.",
    pattern:
      /^tell (?:my |the )?(?<title>[^:\n]+?) workstream(?:\s+that)?\s*[:,]?\s+(?<text>[\s\S]+)/i,
    args: (text, title) => ({
      workstreamId: title?.trim() ?? "",
      text,
      reason: "You asked me to pass this on.",
    }),
  },
  {
    trigger: "ask the NAME: X",
    tool: "consult_specialist",
    effect:
      "In a group workstream, the lead asks its specialist NAME (Researcher, Analyst, Writer) X and answers with what they said.",
    pattern:
      /^ask (?:the |our |my )?(?<title>[A-Za-z][\w-]{1,40})(?:\s*[:,]\s*|\s+(?=(?:to|about|whether|if|what|how|why|which|for|when|who)\s))(?<text>[\s\S]+)/i,
    args: (text, name) => ({ specialist: name?.trim() ?? "", question: question(text) }),
  },
  {
    trigger: "search history for X",
    tool: "search_history",
    effect: "Searches this workstream's messages for X.",
    pattern: /^search (?:the )?history for\s+(?<text>[\s\S]+)/i,
    args: (text) => ({ query: withoutEndMark(text) }),
  },
  {
    trigger: "search the conversation for X",
    tool: "search_history",
    effect: "Searches this workstream's messages for X.",
    pattern: /^search (?:the |this )?conversation for\s+(?<text>[\s\S]+)/i,
    args: (text) => ({ query: withoutEndMark(text) }),
  },
];

/** The plain requests, as data (for docs/offline-model.md and the chat's list of triggers). */
export const DEMO_REQUESTS: ReadonlyArray<ContextRequest> = Object.freeze(
  RULES.map(({ trigger, tool, effect }) => ({ trigger, tool, effect })),
);

const PLEASE = /^\s*(?:please\b[\s,]*)?/i;

/** Every rule a message matches (more than one would be a fault of the table). */
export function matchingRequests(message: string): ContextRequest[] {
  const rest = message.replace(PLEASE, "");
  return RULES.filter((rule) => rule.pattern.test(rest));
}

/** The tool call a message asks for, as `[tool:NAME:JSON]` would give it; null for none. */
export function matchDemoRequest(message: string): { name: string; argsJson: string } | null {
  const rest = message.replace(PLEASE, "");
  for (const rule of RULES) {
    const groups = rule.pattern.exec(rest)?.groups;
    if (!groups) continue;
    const text = groups.text?.trim() ?? "";
    if (!text) return null;
    return { name: rule.tool, argsJson: JSON.stringify(rule.args(text, groups.title)) };
  }
  return null;
}

/**
 * The request as the offline model asks for it: a consultation only when the agent's
 * consult_specialist tool lists the specialist asked for ("ask the team whether…" is a question,
 * not a consultation); the tool's description lists its specialists in parentheses.
 */
export function demoRequest(input: {
  text: string;
  tools: ReadonlyArray<{ name: string; description?: string }>;
}): { name: string; argsJson: string } | null {
  const request = matchDemoRequest(input.text);
  if (request?.name !== "consult_specialist") return request;
  const { specialist } = JSON.parse(request.argsJson) as { specialist?: string };
  const asked = specialist?.trim().toLowerCase();
  const tool = input.tools.find((candidate) => candidate.name === request.name);
  const listed = /\(([^)]*)\)/.exec(tool?.description ?? "")?.[1] ?? "";
  const names = listed.split(",").map((entry) => entry.trim().toLowerCase());
  return asked && names.includes(asked) ? request : null;
}

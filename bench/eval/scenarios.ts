// The evaluation's scenarios: short conversations a member might have, each scored pass or fail
// by a rule a member could check themselves (the state panel shows the item, the memory is on
// the Memories page, the answer holds a consultation). Two rules hold for every scenario: a
// generated title of 2 to 6 words that uses a word of the conversation, and no trace of another
// member (their marker never appears in an answer). The scenarios talk to the app only through
// an EvalDriver, so the same set runs on the offline model in CI and against a real model.
import type { ContextView } from "@/lib/state/schema";

export type EvalMessage = {
  role: string;
  parts: Array<{ type: string; text?: string; [key: string]: unknown }>;
};

/** What a scenario may do and read, all of it as the member would through the app. */
export type EvalDriver = {
  /** A new workstream of the member's: a group one (untitled, so it gets a generated title) or their direct chief. */
  workstream(kind: "group" | "direct"): Promise<string>;
  /** A group workstream with this title (a target for send_message). */
  titledWorkstream(title: string): Promise<string>;
  /** Sends a message and reads the turn to its end; the last status (ready, suspended, error). */
  send(workstreamId: string, text: string): Promise<string>;
  view(workstreamId: string): Promise<ContextView>;
  messages(workstreamId: string): Promise<EvalMessage[]>;
  /** The member's own memories, newest first. */
  memories(): Promise<string[]>;
  /** The workstream's title once the title job has had its chance (or the default after a wait). */
  title(workstreamId: string): Promise<string>;
  /** The workstream's compactions, once any queued one has run. */
  compactions(workstreamId: string): Promise<number>;
  /** Older history, stored as if said before: `lines` member messages, each counted at `tokens`. */
  seedHistory(workstreamId: string, lines: string[], tokens: number): Promise<void>;
};

export type Verdict = { pass: boolean; detail: string };

export type Scenario = {
  id: string;
  name: string;
  /** The rule, as the scorecard states it. */
  rule: string;
  kind: "group" | "direct";
  /** Whether the generated title is scored (direct workstreams keep their own). */
  titled: boolean;
  /** Plays the conversation; returns the verdict of the rule. */
  play(driver: EvalDriver, workstreamId: string): Promise<Verdict>;
};

/** The other member's marker: it is in their memory only, and must never reach this member. */
export const OTHER_MEMBER_MARKER = "HERON-4471";

const has = (text: string, ...words: string[]) =>
  words.some((word) => text.toLowerCase().includes(word.toLowerCase()));

function verdict(pass: boolean, detail: string): Verdict {
  return { pass, detail };
}

function textsOf(messages: EvalMessage[], role = "assistant"): string[] {
  return messages
    .filter((message) => message.role === role)
    .flatMap((message) =>
      message.parts.flatMap((part) => (part.type === "text" ? [part.text ?? ""] : [])),
    );
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: "plan",
    name: "a plan agreed",
    rule: "the state API shows an active plan of 3 or more steps, or a current plan item",
    kind: "group",
    titled: true,
    async play(driver, id) {
      await driver.send(
        id,
        "We're moving the office in March. Steps: pick the moving date, book the movers, tell the team, then pack the kitchen.",
      );
      await driver.send(id, "Yes, that plan is agreed. Let's go with it.");
      const view = await driver.view(id);
      const steps = view.plan?.status === "active" ? view.plan.steps.length : 0;
      const item = view.state.currentPlan.length;
      return verdict(steps >= 3 || item > 0, `plan steps ${steps}, current plan items ${item}`);
    },
  },
  {
    id: "constraint",
    name: "a constraint stated",
    rule: "the state API shows an active constraint naming the budget (20,000)",
    kind: "group",
    titled: true,
    async play(driver, id) {
      await driver.send(
        id,
        "For the product launch event, one hard rule: the total budget cannot go over 20,000 euros.",
      );
      const found = (await driver.view(id)).state.activeConstraints.find((item) =>
        has(item.text, "20,000", "20000", "20k", "budget"),
      );
      return verdict(Boolean(found), found ? `constraint "${found.text}"` : "no such constraint");
    },
  },
  {
    id: "decision",
    name: "a decision with a reason",
    rule: "the state API shows a key decision naming Postgres with a rationale",
    kind: "group",
    titled: true,
    async play(driver, id) {
      await driver.send(
        id,
        "We decided to use Postgres rather than MySQL for the billing database, because the ops team already runs Postgres.",
      );
      const found = (await driver.view(id)).state.keyDecisions.find((item) =>
        has(item.text, "postgres"),
      );
      const rationale = found && "rationale" in found ? String(found.rationale ?? "") : "";
      return verdict(
        Boolean(found && rationale.trim()),
        found ? `decision "${found.text}", rationale "${rationale}"` : "no such decision",
      );
    },
  },
  {
    id: "memory",
    name: "a fact worth remembering in onboarding",
    rule: "the member's memories hold the fact (data platform team, or bullet lists)",
    kind: "direct",
    titled: false,
    async play(driver, id) {
      await driver.send(
        id,
        "Hi! I lead the data platform team at Acme, and I always want answers as short bullet lists.",
      );
      const memories = await driver.memories();
      const found = memories.find((text) => has(text, "data platform", "bullet"));
      return verdict(
        Boolean(found),
        found ? `memory "${found}"` : `${memories.length} memories, none of it`,
      );
    },
  },
  {
    id: "specialist",
    name: "a question for a specialist",
    rule: "the answer holds a consultation (a data-specialist part)",
    kind: "group",
    titled: true,
    async play(driver, id) {
      await driver.send(
        id,
        "Could the Analyst work out whether leasing a van at 450 euros a month for 3 years is cheaper than buying one for 14,000?",
      );
      const parts = (await driver.messages(id)).flatMap((message) =>
        message.role === "assistant" ? message.parts : [],
      );
      const consulted = parts.filter((part) => part.type === "data-specialist").length;
      return verdict(consulted > 0, `${consulted} consultation part(s)`);
    },
  },
  {
    id: "approval",
    name: "a tool that needs approval",
    rule: "the turn waits for the member's approval, and nothing reaches the other workstream before it",
    kind: "group",
    titled: true,
    async play(driver, id) {
      const target = await driver.titledWorkstream("Launch plan");
      const last = await driver.send(
        id,
        'Please post in my "Launch plan" workstream that the launch date moved to 12 March.',
      );
      const posted = textsOf(await driver.messages(target)).length;
      return verdict(
        last === "suspended" && posted === 0,
        `turn ended ${last}, ${posted} message(s) posted`,
      );
    },
  },
  {
    id: "compaction",
    name: "a long conversation that compacts",
    rule: "the workstream is compacted, and the answer after it still names the copper flashing",
    kind: "group",
    titled: true,
    async play(driver, id) {
      await driver.send(id, "We're restoring the harbour lighthouse this year.");
      const window = (await driver.view(id)).lastTurn?.context.window ?? 8_192;
      const lines = [
        "We decided on copper flashing for the lantern room because it outlasts zinc.",
        "The harbour trust reviews the masonry survey on Thursday.",
        "Scaffolding must be booked before the storm season.",
        "The gallery railings are corroded; the inspector may close the gallery.",
        "We need three quotes for the lantern glazing.",
        "The glazing supplier needs drawings of the lantern room.",
      ];
      await driver.seedHistory(id, lines, Math.ceil(window / lines.length));
      await driver.send(id, "Let's keep going with the lighthouse plan.");
      const compacted = await driver.compactions(id);
      await driver.send(
        id,
        "Remind me: which flashing did we choose for the lantern room, and why?",
      );
      const answer = textsOf(await driver.messages(id)).at(-1) ?? "";
      return verdict(
        compacted > 0 && has(answer, "copper"),
        `${compacted} compaction(s); answer ${has(answer, "copper") ? "names" : "does not name"} copper`,
      );
    },
  },
];

const STOPWORDS = new Set(
  "about after again also because before being could every first from have into just like more most much must need only other over please really should some that their them then there these they this those through very want what when where which while will with would your workstream".split(
    " ",
  ),
);

/** The title rule: 2 to 6 words, one of them a word (4+ letters, not a stopword) the member used. */
export function titleVerdict(title: string, memberTexts: string[]): Verdict {
  const words = title.split(/\s+/).filter(Boolean);
  const said = new Set(
    memberTexts
      .join(" ")
      .toLowerCase()
      .match(/\p{L}{4,}/gu)
      ?.filter((word) => !STOPWORDS.has(word)) ?? [],
  );
  const shared = words.find((word) => {
    const bare = word.toLowerCase().replace(/[^\p{L}]/gu, "");
    return said.has(bare) || said.has(bare.replace(/s$/, "")) || said.has(`${bare}s`);
  });
  const pass = words.length >= 2 && words.length <= 6 && shared !== undefined;
  return verdict(pass, `"${title}"${shared ? `, shares "${shared}"` : ", shares no word"}`);
}

/** The privacy rule: the other member's marker appears in no answer of this member's. */
export function privacyVerdict(messages: EvalMessage[]): Verdict {
  const leaked = textsOf(messages).some((text) => text.includes(OTHER_MEMBER_MARKER));
  return verdict(
    !leaked,
    leaked ? "another member's marker appeared" : "no marker of another member",
  );
}

export { textsOf };

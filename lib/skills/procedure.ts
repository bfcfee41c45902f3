// Whether a message lays out a procedure, and which: a name, when to use it and its steps. Used to
// decide which turns are worth asking a model for skills (most are not), and by the offline
// model, which extracts skills with it. A procedure is a numbered or bulleted list of at least
// two steps, steps after a colon separated by semicolons, or "first …, then …, finally …"; its
// name comes from the words that introduce it ("how to release the app:").

export type Procedure = { name: string; whenToUse: string; steps: string[] };

const LIST_ITEM = /^\s*(?:\d{1,2}[.)]|[-*•])\s+(\S.*)$/u;
const SEQUENCE_WORD = /\b(?:first|then|next|after that|afterwards|finally|lastly)\b[,:]?\s*/giu;
const NAMED =
  /\b(?:how (?:to|we|i)|(?:procedure|process|checklist|steps|routine|recipe) (?:for|to)|in order to|to)\s+(.{3,80}?)\s*(?::|$)/iu;
const CONDITION = /^(?:when|whenever|if)\s+(.{3,120}?)[,:]?$/iu;
const INTRO_FILLER = /^(?:here(?: is|'s|’s)|this is|so|ok(?:ay)?|note)[,:\s]+/iu;
const NAME_MAX = 120;
const STEP_MAX = 500;
const STEPS_MAX = 20;
const MIN_STEPS = 2;

function clean(text: string, max: number): string {
  const line = text
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/[;,.:]+$/u, "");
  return [...line].slice(0, max).join("");
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function nameFrom(intro: string, steps: string[]): { name: string; whenToUse: string } | null {
  const sentence = clean(intro.split(/(?<=[.!?])\s+/u).at(-1) ?? "", NAME_MAX * 2);
  // "When the invoice is late, first …": the situation is the name and says when to use it.
  const situation = CONDITION.exec(sentence)?.[1];
  if (situation) {
    const name = clean(situation, NAME_MAX);
    if (name) return { name: capitalized(name), whenToUse: `When ${lowerFirst(name)}.` };
  }
  const named = NAMED.exec(sentence)?.[1];
  const action = named
    ? clean(named, NAME_MAX)
    : sentence.replace(INTRO_FILLER, "").split(" ").length >= 2
      ? clean(sentence.replace(INTRO_FILLER, ""), NAME_MAX)
      : clean((steps[0] ?? "").split(" ").slice(0, 6).join(" "), NAME_MAX);
  if (!action) return null;
  return { name: capitalized(action), whenToUse: `When you need to ${lowerFirst(action)}.` };
}

function procedure(intro: string, rawSteps: string[]): Procedure | null {
  const steps = rawSteps
    .map((step) => capitalized(clean(step, STEP_MAX)))
    .filter((step) => step.length > 0)
    .slice(0, STEPS_MAX);
  if (steps.length < MIN_STEPS) return null;
  const named = nameFrom(intro, steps);
  return named ? { ...named, steps } : null;
}

/** The first procedure `text` lays out, or null. */
export function findProcedure(text: string): Procedure | null {
  const lines = text.split(/\r?\n/u);
  const firstItem = lines.findIndex((line) => LIST_ITEM.test(line));
  if (firstItem >= 0) {
    const items: string[] = [];
    for (const line of lines.slice(firstItem)) {
      const item = LIST_ITEM.exec(line)?.[1];
      if (item) items.push(item);
      else if (line.trim() && items.length > 0) break;
    }
    const found = procedure(lines.slice(0, firstItem).join(" "), items);
    if (found) return found;
  }
  const flat = text.replace(/\s+/gu, " ");
  const colon = flat.indexOf(":");
  if (colon > 0) {
    const after = flat.slice(colon + 1).split(";");
    if (after.length >= MIN_STEPS) {
      const found = procedure(flat.slice(0, colon), after);
      if (found) return found;
    }
  }
  const start = flat.search(/\bfirst\b/iu);
  if (start >= 0) {
    const parts = flat
      .slice(start)
      .split(SEQUENCE_WORD)
      .map((part) => part.replace(/^(?:and|,)\s*/iu, "").replace(/,?\s*(?:and)?\s*$/iu, ""))
      .filter((part) => part.trim().length > 0);
    const found = procedure(flat.slice(0, start), parts);
    if (found) return found;
  }
  return null;
}

/**
 * Whether a turn (its member's message and the agent's answer, as text) is worth asking a model
 * for skills: the turn's end decides it from what it holds, so most turns start no skill job.
 */
export function mayHoldSkills(turn: { member: string; agent: string }): boolean {
  return findProcedure(turn.member) !== null || findProcedure(turn.agent) !== null;
}

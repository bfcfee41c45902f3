/**
 * What the offline model knows from its instructions: the memories the context builder put in
 * <pre-seeded-memories> and <retrieved-knowledge>. When some of them share a word with the
 * member's message, the answer opens with them, so a member without an API key sees memories
 * at work ("From what I remember: …"), and tests can see which memories reached the model.
 */

const SECTION = /<(pre-seeded-memories|retrieved-knowledge)>\n([\s\S]*?)\n<\/\1>/g;
const MAX_MENTIONED = 2;

function unescapeText(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The memories in the instructions, in the order they appear. */
export function memoriesIn(system: string): string[] {
  const found: string[] = [];
  for (const match of system.matchAll(SECTION)) {
    for (const line of (match[2] ?? "").split("\n")) {
      if (line.startsWith("- ")) found.push(unescapeText(line.slice(2)));
    }
  }
  return found;
}

/** Words of four letters or more, cut to their first five (a crude stem: plans ~ planning). */
function keys(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];
  return new Set(words.map((word) => word.slice(0, 5)));
}

/** The memories that share a word with the message, at most two. */
export function relevantMemories(system: string, message: string): string[] {
  const asked = keys(message);
  if (asked.size === 0) return [];
  return memoriesIn(system)
    .filter((memory) => [...keys(memory)].some((key) => asked.has(key)))
    .slice(0, MAX_MENTIONED);
}

/** The answer's opening line about what it remembers, or "" when nothing fits. */
export function knowledgeLine(system: string, message: string): string {
  const relevant = relevantMemories(system, message);
  if (relevant.length === 0) return "";
  return `From what I remember: ${relevant.map((memory) => `“${memory}”`).join(" and ")}.`;
}

// Which sentences of a member's message state a fact or a preference about them: the offline
// model's memory extraction (a configured model decides for itself). A sentence counts when it
// speaks of the member ("I …", "my …", "we …", "our …") or sets a standing preference ("always
// …", "never …"), and is neither a question nor a request to the agent.

export type StatedFact = { text: string; importance: number };

const SENTENCES = /[^.!?\n]+(?:[.!?]+|$)/gu;
const ABOUT_ME =
  /^(?:(?:also|and|but|btw|fyi|oh|so|plus|for the record)[,\s]+)*(?:i|i'm|i’m|i am|i've|i’ve|i'd|i’d|my|mine|we|we're|we’re|we've|we’ve|our)\b/iu;
const STANDING = /^(?:please\s+)?(?:always|never)\b/iu;
const QUESTION_START =
  /^(?:what|how|why|when|where|who|which|can|could|would|will|should|is|are|do|does|did|may|shall)\b/iu;
const REQUEST =
  /\b(?:want|need|would like|'d like|’d like)\s+(?:you|to know|help)\b|^i (?:wonder|was wondering|have a question)\b/iu;
const PREFERENCE =
  /\b(?:prefer|prefers|preferred|like|likes|love|loves|enjoy|hate|hates|dislike|always|never|favou?rite|allergic|avoid|rather)\b/iu;
const MIN_WORDS = 3;

/** The sentences of `text` that state a fact or preference, in order, at most `max`. */
export function statedFacts(text: string, max: number): StatedFact[] {
  const facts: StatedFact[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(SENTENCES)) {
    const sentence = match[0].replace(/\s+/gu, " ").trim();
    if (!sentence || sentence.endsWith("?")) continue;
    if (sentence.split(" ").length < MIN_WORDS) continue;
    if (QUESTION_START.test(sentence) || REQUEST.test(sentence)) continue;
    if (!ABOUT_ME.test(sentence) && !STANDING.test(sentence)) continue;
    const fact = /[.!]$/u.test(sentence) ? sentence : `${sentence}.`;
    const key = fact.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    facts.push({ text: fact, importance: PREFERENCE.test(sentence) ? 6 : 5 });
    if (facts.length >= max) break;
  }
  return facts;
}

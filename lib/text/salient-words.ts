// The content words of a text, ranked: what the offline answers of titles, activity lines,
// memory summaries and compactions are built from. Plain word counting, no language model.

const STOPWORDS = new Set(
  (
    "a an the and or but if then else when while of to in on at by for with without from into onto " +
    "about above below over under again further once here there all any both each few more most " +
    "other some such no nor not only own same so than too very can will just should now is are was " +
    "were be been being have has had having do does did doing i me my myself we our ours you your " +
    "yours he him his she her it its they them their what which who whom this that these those am " +
    "would could might must shall may also how why where please thanks thank hey hello hi want need " +
    "like make get give tell show help let lets use using write explain know think way ways best " +
    "good really something anything thing things one two able sure okay ok yes maybe still there's " +
    "it's i'm i'd i've can't don't doesn't isn't what's how's set setup build create run add fix " +
    "handle change improve find keep start learn work works working go going try look see take put " +
    "call read send new simple quick quickly small little big lot lots much many kind sort stuff " +
    "into via per etc idea ideas option options tip tips step steps guide example examples list " +
    "difference between versus compare better vs"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'+#_./-]*/gu;

/**
 * Content words of the text, deduplicated (case-insensitive), in the order they first appear.
 * A proper noun or technical term (S3, Next.js, Postgres mid-sentence) keeps its casing.
 */
export function contentWords(text: string, max = 40): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].replace(/['_./-]+$/u, "");
    const lower = word.toLowerCase();
    if (word.length === 0 || seen.has(lower) || STOPWORDS.has(lower)) continue;
    const technical = /\p{N}|[+#.]|\p{Lu}/u.test(word.slice(1)) || /^\p{Lu}{2,}$/u.test(word);
    if (word.length < 3 && !technical) continue;
    const before = text.slice(0, match.index).trimEnd();
    const sentenceStart = before.length === 0 || /[.?!:\n]$/u.test(before);
    const strong = technical || (/^\p{Lu}/u.test(word) && !sentenceStart);
    const keepCase = strong || (sentenceStart && /^\p{Lu}\p{Ll}+$/u.test(word) && word.length > 3);
    seen.add(lower);
    found.push(keepCase ? word : lower);
    if (found.length >= max) break;
  }
  return found;
}

/**
 * The text's most salient words: content words ranked by how often they occur (ties: first
 * seen), given back in the order they first appear so they read naturally.
 */
export function salientWords(text: string, max: number): string[] {
  const lower = text.toLowerCase();
  const count = (word: string) => lower.split(word.toLowerCase()).length - 1;
  return contentWords(text)
    .map((word, index) => ({ word, index, count: count(word) }))
    .sort((a, b) => b.count - a.count || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.word);
}

// Plays every scenario through an EvalDriver and scores it: the scenario's own rule, then the
// title rule (group workstreams) and the privacy rule. A scenario that throws fails its rule with
// the error as the detail, so one broken scenario never hides the others. `scorecard` writes the
// result as Markdown (bench/results/eval-latest.md when run by `npm run eval`).
import {
  type EvalDriver,
  privacyVerdict,
  SCENARIOS,
  type Scenario,
  textsOf,
  titleVerdict,
  type Verdict,
} from "./scenarios";

export type EvalRow = {
  scenario: Scenario;
  rule: Verdict;
  title: Verdict | null;
  privacy: Verdict;
  seconds: number;
};

export async function runEval(
  driver: EvalDriver,
  scenarios: readonly Scenario[] = SCENARIOS,
): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  for (const scenario of scenarios) {
    const started = performance.now();
    const id = await driver.workstream(scenario.kind);
    let rule: Verdict;
    try {
      rule = await scenario.play(driver, id);
    } catch (error) {
      rule = {
        pass: false,
        detail: `failed to play: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const messages = await driver.messages(id);
    const title = scenario.titled
      ? titleVerdict(await driver.title(id), textsOf(messages, "user"))
      : null;
    rows.push({
      scenario,
      rule,
      title,
      privacy: privacyVerdict(messages),
      seconds: (performance.now() - started) / 1000,
    });
  }
  return rows;
}

const mark = (verdict: Verdict | null) => (verdict === null ? "–" : verdict.pass ? "pass" : "FAIL");
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function scorecard(rows: EvalRow[], about: { model: string; at: Date }): string {
  const verdicts = rows
    .flatMap((row) => [row.rule, row.title, row.privacy])
    .filter((v) => v !== null);
  const passed = verdicts.filter((verdict) => verdict.pass).length;
  const lines = [
    "# Evaluation: instructions and tool descriptions against a model",
    "",
    `Model: ${about.model}. Run: ${about.at.toISOString()}. ${passed} of ${verdicts.length} checks passed.`,
    "Written by `npm run eval` (docs/models.md); no score is required, the card is for judging a prompt change.",
    "",
    "| scenario | rule | result | title (2–6 words, a word of the conversation) | no other member | seconds |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) =>
      [
        row.scenario.name,
        row.scenario.rule,
        `${mark(row.rule)}: ${row.rule.detail}`,
        row.title
          ? `${mark(row.title)}: ${row.title.detail}`
          : "– (direct workstreams keep their title)",
        `${mark(row.privacy)}`,
        row.seconds.toFixed(1),
      ]
        .map(cell)
        .join(" | ")
        .replace(/^/, "| ")
        .replace(/$/, " |"),
    ),
    "",
  ];
  return lines.join("\n");
}

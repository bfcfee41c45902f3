// `npm run eval`: plays the evaluation's scenarios (bench/eval/scenarios.ts) through the app
// against the configured model (the offline model without OPENAI_API_KEY; see docs/models.md for
// Ollama and OpenAI), prints the scorecard and overwrites bench/results/eval-latest.md. It runs
// tests/integration/eval.test.ts on an embedded database, where the suite runs it offline.
import { spawnSync } from "node:child_process";
import path from "node:path";

process.env.PATH = `${path.resolve("node_modules/.bin")}${path.delimiter}${process.env.PATH}`;
const scorecard = path.resolve("bench/results/eval-latest.md");
const result = spawnSync(
  "vitest",
  ["run", "--project", "integration-pglite", "tests/integration/eval.test.ts"],
  { stdio: "inherit", env: { ...process.env, EVAL_SCORECARD: scorecard } },
);
if (result.status === 0) {
  // Laid out as the repository's formatter keeps Markdown, so a run leaves `npm run lint` clean.
  spawnSync("biome", ["format", "--write", scorecard], { stdio: "ignore" });
  console.log(`\nScorecard written to ${path.relative(process.cwd(), scorecard)}`);
}
process.exit(result.status ?? 1);

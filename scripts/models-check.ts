// `npm run models:check`: tiny calls to each configured model (stream a sentence, one tool call,
// one strict structured output, one embedding), printed as a table of what worked, each
// failure's status and message, and what the catalogue assumes (lib/admin/model-check.ts).
// Exits 1 when a check failed, so a set-up script can stop on it.
import { checkModels, formatModelCheck } from "@/lib/admin/model-check";

const report = await checkModels();
console.log(formatModelCheck(report));
const failed = report.rows.some((row) => row.results.some((result) => !result.ok));
process.exit(failed ? 1 : 0);

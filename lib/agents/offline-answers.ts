/**
 * The agents' offline answer, registered with the offline model by root/offline-answers.ts: the
 * lead's answer after consult_specialist quotes what the specialist said.
 */
import { z } from "zod";

const consultResult = z.object({ specialist: z.string(), answer: z.string() });

/** The lead's answer after a consultation: it quotes what the specialist said. */
export function reportConsultation(output: unknown): string | undefined {
  const parsed = consultResult.safeParse(output);
  if (!parsed.success) return undefined;
  const result = parsed.data;
  const answer = result.answer.trim();
  if (!answer) return `I asked ${result.specialist}, but they had nothing to add.`;
  const lines = answer.split("\n").filter((line) => line.trim().length > 0);
  const quoted = lines.slice(0, 6).map((line) => `> ${line}`);
  const more = lines.length > 6 ? [">", "> …"] : [];
  return [
    `I asked ${result.specialist}. Here is what they said:`,
    "",
    ...quoted,
    ...more,
    "",
    `That is ${result.specialist}'s view; tell me if you want me to act on it.`,
  ].join("\n");
}

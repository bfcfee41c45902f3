// Structured extraction from conversation slices for background jobs (memories, skills): the
// configured model's fast profile, or the offline model, which answers with the task's registered
// offline answer (lib/memory/offline-answers.ts, lib/skills/offline-answer.ts). The schema is deliberately lenient (any lengths, any
// numbers): what a model returns is clipped and checked by the caller, so an over-long fact
// drops that fact rather than failing the job. Callers build it with strictSchema
// (./strict-schema.ts): OpenAI receives every structured output in strict mode.
import "server-only";
import { type FlexibleSchema, Output } from "ai";
import { generateModelText } from "./calls";
import { resolveModel } from "./registry";

export async function extractStructured<T>({
  task,
  instructions,
  transcript,
  schema,
  maxOutputTokens,
}: {
  /** Names the task for the offline model (`providerOptions.offline.task`). */
  task: "memory-facts" | "skills";
  instructions: string;
  transcript: string;
  schema: FlexibleSchema<T>;
  maxOutputTokens: number;
}): Promise<T> {
  const { model } = await resolveModel("fast");
  const { output } = await generateModelText({
    call: task,
    model,
    instructions,
    prompt: transcript,
    output: Output.object({ schema }),
    maxOutputTokens,
    providerOptions: { offline: { task } },
  });
  return output;
}

// Structured extraction from conversation slices for background jobs (memories, skills): the
// configured model's fast profile, or the offline model, which answers with the task's registered
// offline answer (lib/memory/offline-answers.ts, lib/skills/offline-answer.ts). The schema is deliberately lenient (any lengths, any
// numbers): what a model returns is clipped and checked by the caller, so an over-long fact
// drops that fact rather than failing the job. Callers build it with strictSchema
// (./strict-schema.ts): OpenAI receives every structured output in strict mode; a model without
// strict schemas gets JSON mode or a forced tool call (./structured-output.ts), and an answer that
// fails the schema one repair attempt before the job fails with the model's id and the reason.
import "server-only";
import { type FlexibleSchema, Output } from "ai";
import { generateModelText } from "./calls";
import { resolveModel } from "./registry";
import { generateStructured } from "./structured-output";

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
  const { model, modelId } = await resolveModel("fast");
  return generateStructured(modelId, async (repair) => {
    const { output } = await generateModelText({
      call: task,
      model,
      instructions,
      prompt: repair ? `${transcript}\n\n${repair}` : transcript,
      output: Output.object({ schema }),
      maxOutputTokens,
      providerOptions: { offline: { task } },
    });
    return output;
  });
}

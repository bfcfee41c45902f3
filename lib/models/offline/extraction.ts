/**
 * The offline model's extraction tasks, answered as JSON for the caller's schema: `memory-facts`
 * gives the sentences of the member's messages that state a fact or preference about them, each
 * with the number of the message it came from; `skills` gives the procedure a member's message
 * lays out. Both read the transcript format of lib/models/slices.ts and depend only on it, so
 * three different conversations give three different results.
 */
import { config } from "@/lib/config";
import { statedFacts } from "@/lib/memory/facts";
import { findProcedure } from "@/lib/skills/procedure";
import { readSlices } from "../slices";
import { parseTriggers } from "./triggers";

function memberMessages(transcript: string) {
  return readSlices(transcript)
    .filter((message) => message.role === "member")
    .map((message) => ({ ...message, text: parseTriggers(message.text).cleanText }));
}

export function composeFacts(transcript: string): string {
  const facts = memberMessages(transcript).flatMap((message) =>
    statedFacts(message.text, config.memory.factsPerSlice).map((fact) => ({
      message: message.message,
      ...fact,
    })),
  );
  return JSON.stringify({ facts });
}

export function composeSkills(transcript: string): string {
  const skills = memberMessages(transcript).flatMap((message) => {
    const found = findProcedure(message.text);
    return found ? [{ message: message.message, ...found }] : [];
  });
  return JSON.stringify({ skills });
}

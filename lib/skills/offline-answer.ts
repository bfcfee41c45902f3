/**
 * The skills' offline answer, registered with the offline model by root/offline-answers.ts: the
 * procedure each member message of the transcript lays out (./procedure.ts), with the number of
 * the message it came from, as the JSON ./extract.ts asks for.
 */
import { readSlices } from "@/lib/models/slices";
import { findProcedure } from "./procedure";

export function offlineSkills({ prompt }: { prompt: string }): string {
  const skills = readSlices(prompt)
    .filter((message) => message.role === "member")
    .flatMap((message) => {
      const found = findProcedure(message.text);
      return found ? [{ message: message.message, ...found }] : [];
    });
  return JSON.stringify({ skills });
}

// Skills learned from a completed turn: the reusable procedures (a name, when to use it, its
// steps) a model finds in the member's message or the agent's answer, written into the member's
// skills. Only a turn whose messages read like a procedure (./procedure.ts) is sent to the model:
// most turns hold none, and a model call per turn would be paid for nothing.
import "server-only";
import { z } from "zod";
import { config } from "@/lib/config";
import { isAppError } from "@/lib/kernel/errors";
import type { ConversationSlice } from "@/lib/memory/learn";
import { extractStructured } from "@/lib/models/extract";
import { writeSlices } from "@/lib/models/slices";
import { strictSchema } from "@/lib/models/strict-schema";
import { mayHoldSkills } from "./procedure";
import { createSkill, skillFields } from "./store";

export type ExtractedSkill = { name: string; whenToUse: string; steps: string[] };

const SKILLS_INSTRUCTIONS =
  "You collect reusable procedures from conversations between a member and AI agents. Below " +
  "are numbered messages. List each procedure that someone could follow again in another " +
  "situation: a short name (a few words, starting with a verb where possible), when to use it " +
  "(one sentence), and its steps in order (short imperative sentences). Only procedures the " +
  `conversation actually lays out; none if there are none. At most ${config.skills.stepsMax} ` +
  "steps each.";

export const SkillsOutput = strictSchema(
  z.object({
    skills: z.array(
      z.object({
        message: z.number().optional(),
        name: z.string(),
        whenToUse: z.string(),
        steps: z.array(z.string()),
      }),
    ),
  }),
);

export { mayHoldSkills };

/** The procedures of a turn, each within the skill limits (others are dropped). */
export async function extractSkills(
  slice: Pick<ConversationSlice, "member" | "agent">,
): Promise<ExtractedSkill[]> {
  if (!mayHoldSkills(slice)) return [];
  const output = await extractStructured({
    task: "skills",
    instructions: SKILLS_INSTRUCTIONS,
    transcript: writeSlices([slice]),
    schema: SkillsOutput,
    maxOutputTokens: 1_500,
  });
  return output.skills.flatMap((skill) => {
    try {
      return [skillFields({ ...skill, steps: skill.steps.slice(0, config.skills.stepsMax) })];
    } catch (error) {
      if (isAppError(error)) return [];
      throw error;
    }
  });
}

/** Writes a turn's skills as the member's; a name they already have keeps theirs. */
export async function saveSkills(
  slice: ConversationSlice,
  skills: readonly ExtractedSkill[],
): Promise<{ created: number; merged: number }> {
  let created = 0;
  let merged = 0;
  if (!slice.isMember) return { created, merged };
  for (const skill of skills) {
    const result = await createSkill({
      organizationId: slice.organizationId,
      ownerId: slice.userId,
      ...skill,
      source: { turnId: slice.turnId, messageId: slice.userMessageId },
    });
    if (result.merged) merged++;
    else created++;
  }
  return { created, merged };
}

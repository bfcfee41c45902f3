// After a completed turn whose messages lay out a procedure (the turn's end decides it from the
// messages it holds, so most turns start no run): the reusable procedures, kept as the member's
// skills (a name, when to use it, its steps). A skill the member already has by that name keeps
// the member's version.

import { learningFrom } from "@/inngest/failures/record";
import { defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { readTurnSlice } from "@/lib/memory/learn";
import { extractSkills, mayHoldSkills, saveSkills } from "@/lib/skills/extract";

export const SKILL_EXTRACTION_JOB_ID = "skill-extraction";

export const skillExtraction = defineJob({
  id: SKILL_EXTRACTION_JOB_ID,
  name: "Skill extraction",
  trigger: turnCompleted,
  when: { key: "event.data.skills", equals: true },
  // One member's turns one at a time: a procedure repeated in two turns is one skill.
  flow: { retries: 3, concurrency: { key: "event.data.userId", limit: 1 } },
  handler: async ({ event, step }) => {
    // A failed or stopped turn also ends with this event (compaction needs it); its half-told
    // procedure is not a skill.
    if (!event.data.completed) return { created: 0, merged: 0 };
    const slice = await step.run("read-turn", async () => {
      const read = await readTurnSlice(event.data.turnId);
      // Only a member's turn that reads like a procedure is worth keeping (and a model call).
      return read?.isMember && mayHoldSkills(read) ? read : null;
    });
    if (!slice) return { created: 0, merged: 0 };
    const member = [slice.userId];
    const skills = await step.run("extract-skills", () =>
      learningFrom(member, () => extractSkills(slice)),
    );
    if (skills.length === 0) return { created: 0, merged: 0 };
    return step.run("save-skills", () => learningFrom(member, () => saveSkills(slice, skills)));
  },
});

// What the API shows of a skill, and whose skills a viewer may change: their own, and (owners
// and admins) the organization's. A skill's sources (ids into the member's conversations) are
// never shown.
import type { Role } from "@/lib/auth/organizations";
import { isAppError } from "@/lib/kernel/errors";
import type { Skill, SkillOwner } from "./store";

export type SkillView = {
  id: string;
  name: string;
  whenToUse: string;
  steps: string[];
  /** The organization's (shared), or the viewer's own. */
  shared: boolean;
  createdAt: string;
  updatedAt: string;
};

export function skillView(skill: Skill): SkillView {
  return {
    id: skill.id,
    name: skill.name,
    whenToUse: skill.whenToUse,
    steps: skill.steps,
    shared: skill.ownerId === null,
    createdAt: skill.createdAt,
    updatedAt: skill.updatedAt,
  };
}

type SkillViewer = { organizationId: string; userId: string; role: Role };

/** Whether the viewer manages the organization's skills (owners and admins). */
export function managesOrganizationSkills(viewer: SkillViewer): boolean {
  return viewer.role === "owner" || viewer.role === "admin";
}

/**
 * Runs `change` on the viewer's own skill, or, for owners and admins, on the organization's;
 * anything else is not found.
 */
export async function withEditableSkill<T>(
  viewer: SkillViewer,
  change: (owner: SkillOwner) => Promise<T>,
): Promise<T> {
  try {
    return await change({ organizationId: viewer.organizationId, userId: viewer.userId });
  } catch (error) {
    if (!(isAppError(error) && error.code === "not_found:skill")) throw error;
    if (!managesOrganizationSkills(viewer)) throw error;
  }
  return change({ organizationId: viewer.organizationId, userId: null });
}

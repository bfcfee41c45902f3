// The access matrix's entries for the memory and skill routes, and what they address: memories
// and skills of `member` (in the owner's organization), and organization memories for the admin
// routes (one per persona where a call removes it).
import { createMemory } from "@/lib/memory/store";
import { createSkill } from "@/lib/skills/store";
import type { SignedUpUser } from "../../support/http-client";
import {
  adminOnly,
  adminResource,
  anySignedIn,
  type Entry,
  ownerOnly,
  PERSONAS,
  type Persona,
} from "./matrix";

export type MemoryFixture = {
  /** member's memories: one edited, one deleted, one shared */
  memoryId: string;
  deletableMemoryId: string;
  shareableMemoryId: string;
  /** an organization memory admins edit, and one per persona for admins to delete */
  organizationMemoryId: string;
  removableOrganizationMemory: Record<Persona, string>;
  /** member's skills: one edited, one deleted, one shared */
  skillId: string;
  deletableSkillId: string;
  shareableSkillId: string;
};

export async function buildMemoryFixture({
  organizationId,
  memberUser,
}: {
  organizationId: string;
  memberUser: SignedUpUser;
}): Promise<MemoryFixture> {
  const own = async (text: string) =>
    (await createMemory({ organizationId, ownerId: memberUser.userId, text })).memory.id;
  const shared = async (text: string) =>
    (await createMemory({ organizationId, ownerId: null, text })).memory.id;
  const skill = async (name: string) =>
    (
      await createSkill({
        organizationId,
        ownerId: memberUser.userId,
        name,
        whenToUse: `When you need to ${name.toLowerCase()}.`,
        steps: ["Open the checklist", "Follow it"],
      })
    ).skill.id;
  const removable = {} as Record<Persona, string>;
  for (const persona of PERSONAS) removable[persona] = await shared(`Matrix removable ${persona}`);
  return {
    memoryId: await own("Matrix member fact"),
    deletableMemoryId: await own("Matrix member fact to forget"),
    shareableMemoryId: await own("Matrix member fact to share"),
    organizationMemoryId: await shared("Matrix organization fact"),
    removableOrganizationMemory: removable,
    skillId: await skill("Matrix skill"),
    deletableSkillId: await skill("Matrix skill to delete"),
    shareableSkillId: await skill("Matrix skill to share"),
  };
}

export const MEMORY_ENTRIES: Record<string, Entry> = {
  "GET /api/memories": { expected: anySignedIn(200), path: () => "/api/memories" },
  "PATCH /api/memories/[memoryId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/memories/${f.memory.memoryId}`,
    body: () => ({ importance: 6 }),
  },
  "DELETE /api/memories/[memoryId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/memories/${f.memory.deletableMemoryId}`,
  },
  "POST /api/memories/[memoryId]/share": {
    expected: ownerOnly(200),
    path: (f) => `/api/memories/${f.memory.shareableMemoryId}/share`,
    body: () => ({ confirm: true }),
  },
  "GET /api/admin/memories": { expected: adminOnly(200), path: () => "/api/admin/memories" },
  "POST /api/admin/memories": {
    expected: adminOnly(201),
    path: () => "/api/admin/memories",
    body: (_, persona) => ({ text: `Matrix fact added by ${persona}` }),
  },
  "PATCH /api/admin/memories/[memoryId]": {
    expected: adminResource(200),
    path: (f) => `/api/admin/memories/${f.memory.organizationMemoryId}`,
    body: () => ({ importance: 7 }),
  },
  "DELETE /api/admin/memories/[memoryId]": {
    expected: adminResource(200),
    path: (f, persona) => `/api/admin/memories/${f.memory.removableOrganizationMemory[persona]}`,
  },
  "GET /api/skills": { expected: anySignedIn(200), path: () => "/api/skills" },
  "PATCH /api/skills/[skillId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/skills/${f.memory.skillId}`,
    body: () => ({ whenToUse: "When the matrix runs." }),
  },
  "DELETE /api/skills/[skillId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/skills/${f.memory.deletableSkillId}`,
  },
  "POST /api/skills/[skillId]/share": {
    expected: ownerOnly(200),
    path: (f) => `/api/skills/${f.memory.shareableSkillId}/share`,
    body: () => ({ confirm: true }),
  },
};

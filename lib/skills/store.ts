// Skills: reusable procedures learned from a member's conversations (a name, when to use it, its
// steps). This module is the only writer of the skills table. Who sees what is the memories'
// rule: an extracted skill belongs to the member it came from and is offered only to that
// member's agents; once the member shares it (an explicit act) it is the organization's, offered
// to everyone's agents, and its owners and admins manage it. Every function takes the owner it
// acts for (a user id, or null for the organization's), so a route cannot reach a skill it
// should not see.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { fromJson } from "@/db/json";
import { oneOwnedRow, ownedBy, type RowOwner } from "@/db/owned-rows";
import type { MemorySource } from "@/db/schema/memories";
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import { normalizeMemoryText } from "@/lib/memory/store";
import { toStorableText } from "@/lib/text/storable";

export type Skill = {
  id: string;
  organizationId: string;
  /** The member it belongs to; null for the organization's. */
  ownerId: string | null;
  name: string;
  whenToUse: string;
  steps: string[];
  createdAt: string;
  updatedAt: string;
};

/** Whose skills a call reaches: one member's (userId), or the organization's (null). */
export type SkillOwner = RowOwner;

/** A skill as a turn is offered it: by name, with when to use it (the steps come by use_skill). */
export type OfferedSkill = { name: string; whenToUse: string };

const SOURCES_MAX = 20;

function field(value: string, name: string, max: number): string {
  const trimmed = toStorableText(value).replace(/\s+/gu, " ").trim();
  if (!trimmed) throw new AppError("bad_request:validation", { details: { field: name } });
  if ([...trimmed].length > max) {
    throw new AppError("bad_request:too_long", { details: { field: name, max } });
  }
  return trimmed;
}

function stepsOf(steps: readonly string[]): string[] {
  const { stepsMax, stepMaxChars } = config.skills;
  const kept = steps.map((step, index) => field(step, `steps.${index}`, stepMaxChars));
  if (kept.length === 0)
    throw new AppError("bad_request:validation", { details: { field: "steps" } });
  if (kept.length > stepsMax) {
    throw new AppError("bad_request:too_long", { details: { field: "steps", max: stepsMax } });
  }
  return kept;
}

/** A skill's fields as stored: trimmed, storable, within their limits (or refused). */
export function skillFields(input: { name: string; whenToUse: string; steps: readonly string[] }): {
  name: string;
  whenToUse: string;
  steps: string[];
} {
  return {
    name: field(input.name, "name", config.skills.nameMaxChars),
    whenToUse: field(input.whenToUse, "whenToUse", config.skills.whenToUseMaxChars),
    steps: stepsOf(input.steps),
  };
}

type SkillRow = {
  id: string;
  organization_id: string;
  owner_id: string | null;
  name: string;
  when_to_use: string;
  steps: string[] | string;
  created_at: Date | string;
  updated_at: Date | string;
};

const COLUMNS = sql.raw(
  `"id", "organization_id", "owner_id", "name", "when_to_use", "steps", "created_at", "updated_at"`,
);

function toSkill(row: SkillRow): Skill {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    name: row.name,
    whenToUse: row.when_to_use,
    steps: fromJson(row.steps),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const SKILL_CODES = { notFound: "not_found:skill", exists: "conflict:skill_exists" } as const;

/**
 * Adds a skill learned from a conversation to the member's skills. A skill of the same name
 * (case, whitespace and punctuation folded) is the same skill: it keeps its text (the member may
 * have edited it) and gains the source. `merged` says which happened; a source it already has
 * changes nothing, so a re-run of the job writes nothing new.
 */
export async function createSkill(input: {
  organizationId: string;
  ownerId: string;
  name: string;
  whenToUse: string;
  steps: readonly string[];
  source?: MemorySource | null;
}): Promise<{ skill: Skill; merged: boolean }> {
  const fields = skillFields(input);
  const sources = JSON.stringify(input.source ? [input.source] : []);
  const [row] = await executePrepared<SkillRow & { merged: boolean }>(sql`
    insert into "skills" ("id", "organization_id", "owner_id", "name", "normalized_name",
      "when_to_use", "steps", "sources")
    values (${`skl_${crypto.randomUUID().replaceAll("-", "")}`}, ${input.organizationId},
      ${input.ownerId}, ${fields.name}, ${normalizeMemoryText(fields.name)}, ${fields.whenToUse},
      ${JSON.stringify(fields.steps)}::jsonb, ${sources}::jsonb)
    on conflict ("organization_id", coalesce("owner_id", ''), "normalized_name") do update set
      "sources" = case when excluded."sources" = '[]'::jsonb
          or "skills"."sources" @> excluded."sources" then "skills"."sources"
        else (select coalesce(jsonb_agg(s.value order by s.ord), '[]'::jsonb) from (
          select value, ord from jsonb_array_elements("skills"."sources" || excluded."sources")
            with ordinality as e(value, ord)
          order by ord desc limit ${SOURCES_MAX}) s) end
    returning ${COLUMNS}, (xmax <> 0) as "merged"`);
  if (!row) throw new Error("the skill insert returned no row");
  return { skill: toSkill(row), merged: Boolean(row.merged) };
}

/** The skills `owner` reaches, most recently changed first (at most 200: skills are few). */
export async function listSkills({ owner }: { owner: SkillOwner }): Promise<Skill[]> {
  const rows = await executePrepared<SkillRow>(sql`
    select ${COLUMNS} from "skills" where ${ownedBy(owner)}
    order by "updated_at" desc, "id" desc limit 200`);
  return rows.map(toSkill);
}

export async function getSkill({ owner, id }: { owner: SkillOwner; id: string }): Promise<Skill> {
  const row = await oneOwnedRow(
    executePrepared<SkillRow>(sql`
      select ${COLUMNS} from "skills" where "id" = ${id} and ${ownedBy(owner)}`),
    SKILL_CODES,
  );
  return toSkill(row);
}

/** Changes a skill's name, when to use it or its steps; a name another skill has is a 409. */
export async function updateSkill({
  owner,
  id,
  name,
  whenToUse,
  steps,
}: {
  owner: SkillOwner;
  id: string;
  name?: string;
  whenToUse?: string;
  steps?: readonly string[];
}): Promise<Skill> {
  const nextName = name === undefined ? null : field(name, "name", config.skills.nameMaxChars);
  const nextWhen =
    whenToUse === undefined ? null : field(whenToUse, "whenToUse", config.skills.whenToUseMaxChars);
  const nextSteps = steps === undefined ? null : JSON.stringify(stepsOf(steps));
  const row = await oneOwnedRow(
    executePrepared<SkillRow>(sql`
      update "skills" set
        "name" = coalesce(${nextName}::text, "name"),
        "normalized_name" = coalesce(${nextName === null ? null : normalizeMemoryText(nextName)}::text,
          "normalized_name"),
        "when_to_use" = coalesce(${nextWhen}::text, "when_to_use"),
        "steps" = coalesce(${nextSteps}::jsonb, "steps"),
        "updated_at" = now()
      where "id" = ${id} and ${ownedBy(owner)}
      returning ${COLUMNS}`),
    SKILL_CODES,
  );
  return toSkill(row);
}

export async function deleteSkill({ owner, id }: { owner: SkillOwner; id: string }) {
  await oneOwnedRow(
    executePrepared<{ id: string }>(sql`
      delete from "skills" where "id" = ${id} and ${ownedBy(owner)} returning "id"`),
    SKILL_CODES,
  );
}

/**
 * Shares one of the member's skills with the organization: it becomes the organization's,
 * without its sources (they point into the member's conversations). The organization already
 * having a skill of that name is a 409: the member renames theirs first. Callers must have the
 * member's explicit confirmation.
 */
export async function shareSkill({
  owner,
  id,
}: {
  owner: SkillOwner & { userId: string };
  id: string;
}): Promise<Skill> {
  const row = await oneOwnedRow(
    executePrepared<SkillRow>(sql`
      update "skills" set "owner_id" = null, "sources" = '[]'::jsonb, "updated_at" = now()
      where "id" = ${id} and ${ownedBy(owner)}
      returning ${COLUMNS}`),
    SKILL_CODES,
  );
  return toSkill(row);
}

/**
 * The skills offered to a member's turn: their own and the organization's, most recently changed
 * first (at most `config.skills.offeredLimit`, the member's own before the organization's).
 */
export async function offeredSkills({
  organizationId,
  userId,
}: {
  organizationId: string;
  userId: string;
}): Promise<OfferedSkill[]> {
  const rows = await executePrepared<{ name: string; when_to_use: string }>(sql`
    select k."name", k."when_to_use" from (
      select s."name", s."when_to_use", s."updated_at" from "skills" s
      where s."organization_id" = ${organizationId}
        and (s."owner_id" is null or s."owner_id" = ${userId})
      order by (s."owner_id" is null), s."updated_at" desc
      limit ${config.skills.offeredLimit}) k
    order by k."updated_at" desc`);
  return rows.map((row) => ({ name: row.name, whenToUse: row.when_to_use }));
}

/**
 * The skill a member's agent asks for by name: the member's own first, then the organization's.
 * Null when neither has it.
 */
export async function findSkillByName({
  organizationId,
  userId,
  name,
}: {
  organizationId: string;
  userId: string;
  name: string;
}): Promise<Skill | null> {
  const [row] = await executePrepared<SkillRow>(sql`
    select ${COLUMNS} from "skills"
    where "organization_id" = ${organizationId} and ("owner_id" is null or "owner_id" = ${userId})
      and "normalized_name" = ${normalizeMemoryText(name)}
    order by ("owner_id" is null) limit 1`);
  return row ? toSkill(row) : null;
}

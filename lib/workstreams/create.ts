// Creating workstreams: direct (1:1 with an agent, deterministic id, idempotent), group
// (title optional, led by the group lead agent) and core (a fixed profile per coreType,
// deterministic id, idempotent). Validation is here, not only in routes, because the bootstrap
// and the chief's tools create workstreams too.
import "server-only";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { config, getAgent, getCoreWorkstreamProfile } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import { coreWorkstreamId, directWorkstreamId, newWorkstreamId } from "./ids";
import { publishWorkstreamChange } from "./live";
import { requireSummaryRow, toSummary } from "./summary";
import { validTitle } from "./titles";
import type { WorkstreamSummary } from "./types";

export type CreateWorkstreamInput =
  | { mode: "direct"; agentId: string }
  | { mode: "group"; core?: false; title?: string; agentId?: string }
  | { mode: "group"; core: true; coreType: string };

export type CreatedWorkstream = { workstream: WorkstreamSummary; created: boolean };

type Owner = { userId: string; organizationId: string };
type NewRow = typeof workstreams.$inferInsert;

function requireAgent(agentId: string) {
  const agent = getAgent(agentId);
  if (!agent) {
    throw new AppError("bad_request:agent", {
      details: { agentId },
    });
  }
  return agent;
}

/** The row a create would insert; throws a 400 with a code for bad input. */
export function plannedRow({ userId, organizationId, ...input }: Owner & CreateWorkstreamInput) {
  const base = { organizationId, ownerId: userId };
  if (input.mode === "direct") {
    const agent = requireAgent(input.agentId);
    return {
      ...base,
      id: directWorkstreamId({ agentId: agent.id, userId, organizationId }),
      mode: "direct",
      agentId: agent.id,
      title: agent.name,
    } satisfies NewRow;
  }
  if (input.core === true) {
    const profile = getCoreWorkstreamProfile(input.coreType);
    if (!profile) {
      throw new AppError("bad_request:core_type", {
        details: { coreType: input.coreType },
      });
    }
    return {
      ...base,
      id: coreWorkstreamId({ coreType: profile.coreType, userId, organizationId }),
      mode: "group",
      core: true,
      coreType: profile.coreType,
      agentId: requireAgent(profile.agentId).id,
      title: profile.title,
    } satisfies NewRow;
  }
  return {
    ...base,
    id: newWorkstreamId(),
    mode: "group",
    agentId: requireAgent(input.agentId ?? config.workstreams.groupLeadAgentId).id,
    title:
      input.title === undefined ? config.workstreams.defaultGroupTitle : validTitle(input.title),
  } satisfies NewRow;
}

export async function createWorkstream(
  input: Owner & CreateWorkstreamInput,
): Promise<CreatedWorkstream> {
  const row = plannedRow(input);
  const db = await getDb();
  // Direct and core ids are deterministic: a second create finds the first one.
  const inserted = await db
    .insert(workstreams)
    .values(row)
    .onConflictDoNothing({ target: workstreams.id })
    .returning({ id: workstreams.id });
  const summaryRow = await requireSummaryRow({
    scope: { kind: "owner", userId: input.userId, organizationId: input.organizationId },
    workstreamId: row.id,
  });
  const created = inserted.length > 0;
  if (created) await publishWorkstreamChange(summaryRow, "created");
  return { workstream: toSummary(summaryRow), created };
}

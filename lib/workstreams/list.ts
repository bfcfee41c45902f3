// Listing a member's workstreams: `mode` is required; direct and core workstreams come as one list
// (a member has a handful), standard group workstreams come in pages of `take` with `hasMore`.
// Archived workstreams are left out unless `includeArchived`.
import "server-only";
import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { config, listAgents } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import { scopeCondition, summaryColumns, toSummary } from "./summary";
import type { WorkstreamMode, WorkstreamSummary } from "./types";

export const MAX_PAGE = 10_000;

export type ListWorkstreamsInput = {
  userId: string;
  organizationId: string;
  mode: WorkstreamMode;
  core?: boolean;
  take?: number;
  page?: number;
  includeArchived?: boolean;
};

export type WorkstreamList = {
  workstreams: WorkstreamSummary[];
  hasMore: boolean;
  /** Paged lists only: the page returned and its size. */
  page?: number;
  take?: number;
};

function checkPaging(input: ListWorkstreamsInput): { take: number; page: number } | null {
  const paged = input.mode === "group" && input.core !== true;
  if (!paged) {
    if (input.take !== undefined || input.page !== undefined) {
      throw new AppError("bad_request:paging");
    }
    return null;
  }
  const take = input.take ?? config.workstreams.groupPageSize;
  const page = input.page ?? 1;
  const maxTake = config.workstreams.groupMaxTake;
  if (!Number.isInteger(take) || take < 1 || take > maxTake) {
    throw new AppError("bad_request:take");
  }
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) {
    throw new AppError("bad_request:page");
  }
  return { take, page };
}

export async function listWorkstreams(input: ListWorkstreamsInput): Promise<WorkstreamList> {
  if (input.mode !== "direct" && input.mode !== "group") {
    throw new AppError("bad_request:mode");
  }
  if (input.mode === "direct" && input.core === true) {
    throw new AppError("bad_request:core");
  }
  const paging = checkPaging(input);
  const conditions: Array<SQL | undefined> = [
    scopeCondition({ kind: "owner", userId: input.userId, organizationId: input.organizationId }),
    eq(workstreams.mode, input.mode),
  ];
  if (input.mode === "group") conditions.push(eq(workstreams.core, input.core === true));
  if (!input.includeArchived) conditions.push(eq(workstreams.status, "regular"));
  const db = await getDb();
  const query = db
    .select(summaryColumns)
    .from(workstreams)
    .where(and(...conditions));

  if (!paging) {
    const rows = await query.orderBy(asc(workstreams.createdAt), asc(workstreams.id));
    return { workstreams: sortFixed(rows.map(toSummary)), hasMore: false };
  }
  const { take, page } = paging;
  // One extra row tells whether another page follows.
  const rows = await query
    .orderBy(desc(workstreams.updatedAt), desc(workstreams.id))
    .limit(take + 1)
    .offset((page - 1) * take);
  if (rows.length === 0 && page > 1) {
    throw new AppError("bad_request:page", {
      details: { page },
    });
  }
  return {
    workstreams: rows.slice(0, take).map(toSummary),
    hasMore: rows.length > take,
    page,
    take,
  };
}

/** Direct workstreams in the config's agent order, core ones in the core profiles' order. */
function sortFixed(list: WorkstreamSummary[]): WorkstreamSummary[] {
  const agentOrder = listAgents().map((agent) => agent.id);
  const coreOrder = Object.keys(config.workstreams.coreProfiles);
  const rank = (item: WorkstreamSummary) => {
    const order = item.core
      ? coreOrder.indexOf(item.coreType ?? "")
      : agentOrder.indexOf(item.agentId);
    return order < 0 ? Number.MAX_SAFE_INTEGER : order;
  };
  return [...list].sort((a, b) => rank(a) - rank(b));
}

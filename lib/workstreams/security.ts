// A workstream's security mode and allowlist: which tool calls run without asking its owner
// (lib/agents/authority.ts applies them, after the organization's tool policy). Any workstream's
// owner may set them, direct and core ones included; the allowlist names tools the workstream's
// agent has.
import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import type { SecurityMode } from "@/lib/agents/authority";
import { getAgent } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";

export type WorkstreamSecurity = { mode: SecurityMode; allowlist: string[] };

export async function setWorkstreamSecurity({
  owner,
  workstreamId,
  mode,
  allowlist,
}: {
  owner: { userId: string; organizationId: string };
  workstreamId: string;
  mode?: SecurityMode;
  allowlist?: string[];
}): Promise<WorkstreamSecurity> {
  const db = await getDb();
  const mine = and(
    eq(workstreams.id, workstreamId),
    eq(workstreams.organizationId, owner.organizationId),
    eq(workstreams.ownerId, owner.userId),
  );
  const [row] = await db
    .select({
      agentId: workstreams.agentId,
      mode: workstreams.securityMode,
      allowlist: workstreams.toolAllowlist,
    })
    .from(workstreams)
    .where(mine)
    .limit(1);
  if (!row) throw new AppError("not_found:workstream");
  const tools = getAgent(row.agentId)?.tools ?? [];
  const unknown = allowlist?.find((tool) => !tools.includes(tool));
  if (unknown !== undefined) throw new AppError("bad_request:tool", { details: { tool: unknown } });
  const next = {
    mode: mode ?? row.mode,
    allowlist: allowlist ? [...new Set(allowlist)].sort() : row.allowlist,
  };
  await db
    .update(workstreams)
    .set({ securityMode: next.mode, toolAllowlist: next.allowlist })
    .where(mine);
  return next;
}

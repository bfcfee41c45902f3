// PATCH `{ role }`: change a member's role. DELETE: remove a member; their workstreams stay
// with the organization. Owners and admins; only owners touch owners.
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/guard";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { param, type RouteContext } from "@/lib/http/params";
import { parseInput } from "@/lib/http/parse";
import { json, readJson, route } from "@/lib/http/respond";

const RoleBody = z.strictObject({ role: z.enum(["owner", "admin", "member"]) });

export const PATCH = route(async (request, context: RouteContext<"memberId">) => {
  const actor = await requireAdmin(request);
  const memberId = await param(context, "memberId");
  const { role } = parseInput(RoleBody, await readJson(request), { role: "bad_request:role" });
  return json(await changeMemberRole({ actor, memberId, role }));
});

export const DELETE = route(async (request, context: RouteContext<"memberId">) => {
  const actor = await requireAdmin(request);
  return json(await removeMember({ actor, memberId: await param(context, "memberId") }));
});

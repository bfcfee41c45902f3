// GET: the workstream as its owner sees it: title, mode, agent, busy state (isRunning,
// isCompacting, never the run id), the open turn and the newest event offset to follow from.
// PATCH `{ title }`: rename (standard group workstreams only). DELETE: delete an archived group
// workstream with its messages, turns and events.
import { z } from "zod";
import { requireViewer } from "@/lib/auth/viewer";
import { param, type RouteContext } from "@/lib/http/params";
import { parseInput } from "@/lib/http/parse";
import { json, readJson, route } from "@/lib/http/respond";
import { describeWorkstream } from "@/lib/turns/describe";
import { deleteWorkstream, renameWorkstream } from "@/lib/workstreams/mutate";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { ownerScope } from "@/lib/workstreams/types";

// The documented limit (config.workstreams.titleMaxChars) is checked after normalizing.
const RenameBody = z.strictObject({ title: z.string().max(4_000) });

export const GET = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstream = await getOwnedWorkstream({
    viewer,
    workstreamId: await param(context, "workstreamId"),
  });
  return json({
    ...(await describeWorkstream(workstream)),
    core: workstream.core,
    coreType: workstream.coreType,
  });
});

export const PATCH = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstreamId = await param(context, "workstreamId");
  const body = parseInput(RenameBody, await readJson(request), { title: "bad_request:title" });
  return json(
    await renameWorkstream({ scope: ownerScope(viewer), workstreamId, title: body.title }),
  );
});

export const DELETE = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstreamId = await param(context, "workstreamId");
  return json(await deleteWorkstream({ scope: ownerScope(viewer), workstreamId }));
});

// POST: open (idempotently create) the viewer's direct workstream with an agent. The workstreams
// issue adds group and core workstreams and listing here.
import { z } from "zod";
import { requireViewer } from "@/lib/auth/viewer";
import { json, readJson, route } from "@/lib/http/respond";
import { describeWorkstream } from "@/lib/turns/describe";
import { ensureDirectWorkstream } from "@/lib/workstreams/queries";

const CreateBody = z.object({
  mode: z.literal("direct"),
  agentId: z.string().min(1).max(64),
});

export const POST = route(async (request) => {
  const viewer = await requireViewer(request);
  const body = CreateBody.parse(await readJson(request));
  const workstream = await ensureDirectWorkstream({ viewer, agentId: body.agentId });
  return json(await describeWorkstream(workstream), { status: 201 });
});

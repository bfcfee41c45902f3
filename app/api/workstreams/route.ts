// GET: the viewer's workstreams of one mode (seed 001 listWorkstreams: `mode` required, `core`,
// `take`/`page` for standard group workstreams, `includeArchived`).
// POST: create a direct, group or core workstream. Direct and core creates are idempotent and
// answer 201 either way (with `created` telling whether this call made it), so clients can
// "open" a direct workstream without checking first.
import { requireViewer } from "@/lib/auth/viewer";
import { parseInput, queryOf } from "@/lib/http/parse";
import { json, readJson, route } from "@/lib/http/respond";
import { createWorkstream } from "@/lib/workstreams/create";
import { listWorkstreams } from "@/lib/workstreams/list";
import { CREATE_CODES, CreateBody, LIST_CODES, ListQuery, toCreateInput } from "./schema";

export const GET = route(async (request) => {
  const viewer = await requireViewer(request);
  const query = parseInput(ListQuery, queryOf(request), LIST_CODES);
  return json(
    await listWorkstreams({
      userId: viewer.userId,
      organizationId: viewer.organizationId,
      ...query,
    }),
  );
});

export const POST = route(async (request) => {
  const viewer = await requireViewer(request);
  const body = parseInput(CreateBody, await readJson(request), CREATE_CODES);
  const { workstream, created } = await createWorkstream({
    userId: viewer.userId,
    organizationId: viewer.organizationId,
    ...toCreateInput(body),
  });
  return json({ ...workstream, created }, { status: 201 });
});

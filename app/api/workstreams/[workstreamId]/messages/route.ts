// POST: send a user message, starting a turn; answered with the turn's SSE stream.
// GET: a page of history (`take`, default 6; cursor `beforeMessageId`).
import { z } from "zod";
import { requireViewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { AppError } from "@/lib/http/errors";
import { param, type RouteContext } from "@/lib/http/params";
import { json, readJson, route } from "@/lib/http/respond";
import { followResponse } from "@/lib/turns/follow-turn";
import { listMessageHistoryPage } from "@/lib/turns/messages";
import { startTurn } from "@/lib/turns/start-turn";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";

const SendBody = z.object({
  message: z.object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "ids are 1–100 letters, digits, _ or -"),
    role: z.literal("user"),
    parts: z
      .array(z.object({ type: z.literal("text"), text: z.string() }))
      .min(1)
      .max(20),
  }),
});

const HistoryQuery = z.object({
  take: z.coerce
    .number()
    .int()
    .min(1)
    .max(config.history.maxTake)
    .default(config.history.defaultTake),
  beforeMessageId: z.string().min(1).max(200).optional(),
});

export const POST = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstreamId = await param(context, "workstreamId");
  const body = SendBody.parse(await readJson(request, config.turns.maxMessageChars * 4 + 4096));
  const text = body.message.parts.map((part) => part.text).join("");
  if (!text.trim()) throw new AppError("bad_request:empty_message");
  if (text.length > config.turns.maxMessageChars) {
    throw new AppError("payload_too_large:message");
  }
  const { turn, followAfter } = await startTurn({ viewer, workstreamId, message: body.message });
  return followResponse({
    workstreamId,
    after: followAfter,
    request,
    headers: { "x-turn-id": turn.id },
    assumeOpen: true,
  });
});

export const GET = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstream = await getOwnedWorkstream({
    viewer,
    workstreamId: await param(context, "workstreamId"),
  });
  const query = HistoryQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const page = await listMessageHistoryPage({ workstreamId: workstream.id, ...query });
  return json(page);
});

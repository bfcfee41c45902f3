// POST: send a user message, starting a turn; answered with the turn's SSE stream.
// GET: a page of history (`take`, default 6; cursor `beforeMessageId`).
import { requireViewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { filesSent, messageWithFiles } from "@/lib/files/service";
import { AppError } from "@/lib/http/errors";
import { eventStreamResponse } from "@/lib/http/event-stream";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { isBlankText } from "@/lib/http/text";
import { followTurn } from "@/lib/turns/follow-turn";
import { listMessageHistoryPage } from "@/lib/turns/messages";
import { startTurn } from "@/lib/turns/start-turn";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    const { parts } = body.message;
    const text = parts.map((part) => (part.type === "text" ? part.text : "")).join("");
    const files = parts.filter((part) => part.type === "file").length;
    if (isBlankText(text) && files === 0) throw new AppError("bad_request:empty_message");
    if (text.length > config.turns.maxMessageChars) {
      throw new AppError("payload_too_large:message");
    }
    const { workstreamId } = params;
    const message = await messageWithFiles({ viewer, workstreamId, message: body.message });
    const started = await startTurn({ viewer, workstreamId, message });
    await filesSent(workstreamId, message);
    const turnId = started.turn.id;
    return eventStreamResponse(
      request,
      (signal) =>
        followTurn({
          workstreamId,
          after: started.followAfter,
          signal,
          turnId,
          known: started.events,
          subscription: started.subscription,
        }),
      { headers: { "x-turn-id": turnId } },
    );
  },
  GET: async ({ request, params, query }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    const page = await listMessageHistoryPage({ workstreamId: workstream.id, ...query });
    return json(page);
  },
});

// POST: send a user message, starting a turn; answered with the turn's SSE stream.
// GET: a page of history (`take`, default 6; cursor `beforeMessageId`).
import { requireViewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { filesSent, messageWithFiles } from "@/lib/files/service";
import { eventStreamResponse } from "@/lib/http/event-stream";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { isBlankText } from "@/lib/http/text";
import { AppError } from "@/lib/kernel/errors";
import { followTurn } from "@/lib/turns/follow-turn";
import { readHistoryPage } from "@/lib/turns/messages";
import { type StartedTurn, startTurn } from "@/lib/turns/start-turn";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

type Parts = ReadonlyArray<{ type: "text"; text: string } | { type: "file" }>;

/** Why the message cannot start a turn (no words and no file; too long), or null. */
function messageRefusal(parts: Parts): AppError | null {
  const text = parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  if (isBlankText(text) && !parts.some((part) => part.type === "file")) {
    return new AppError("bad_request:empty_message");
  }
  if (text.length > config.turns.maxMessageChars) return new AppError("payload_too_large:message");
  return null;
}

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params, body }) => {
    const { workstreamId } = params;
    const files = body.message.parts.filter((part) => part.type === "file").length;
    const refusal = messageRefusal(body.message.parts);
    // The session is checked first: a refused message is refused only for a signed-in member
    // (401/403 come first), and files are checked against the member's workstream.
    const viewer = await requireViewer(request);
    if (refusal) throw refusal;
    let started: StartedTurn;
    if (files > 0) {
      const workstream = await getOwnedWorkstream({ viewer, workstreamId });
      const message = await messageWithFiles({ workstream, message: body.message });
      started = await startTurn({ viewer, workstreamId, message });
      await filesSent(workstreamId, message);
    } else {
      started = await startTurn({ viewer, workstreamId, message: body.message });
    }
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
    const page = await readHistoryPage({
      viewer: await requireViewer(request),
      workstreamId: params.workstreamId,
      ...query,
    });
    return json(page);
  },
});

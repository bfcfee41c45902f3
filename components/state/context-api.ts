// The context panel's calls: read what the agent keeps for a workstream, edit its state with a
// delta, delete a memory-block note. Failures are ChatRequestErrors carrying the server's code and
// plain sentence, like the chat's own calls. Types only from lib/state: its schemas (zod) stay on
// the server.
import { type ApiOptions, request, workstreamPath } from "@/lib/chat-client/api";
import { ChatRequestError, isRecord, readRequestError } from "@/lib/chat-client/wire";
import type {
  ContextView,
  Eviction,
  WorkstreamState,
  WorkstreamStateDelta,
} from "@/lib/state/schema";

function unexpected(status: number): ChatRequestError {
  return new ChatRequestError("internal:response", "The server sent an unexpected answer.", {
    status,
  });
}

async function send(url: string, init: RequestInit, options: ApiOptions): Promise<unknown> {
  const response = await request(url, { ...init, signal: options.signal }, options.fetch);
  if (!response.ok) throw await readRequestError(response);
  return response.json();
}

/** Enough of the view's shape to render it; the server is ours, so this is a seam check. */
function asContextView(value: unknown): ContextView | null {
  if (!isRecord(value) || typeof value.workstreamId !== "string") return null;
  if (typeof value.version !== "number" || !isRecord(value.state)) return null;
  if (!isRecord(value.memoryBlock) || !Array.isArray(value.memoryBlock.entries)) return null;
  return value as unknown as ContextView;
}

export async function fetchContextView(
  workstreamId: string,
  options: ApiOptions = {},
): Promise<ContextView> {
  const body = await send(workstreamPath(workstreamId, "/context"), {}, options);
  const view = asContextView(body);
  if (!view) throw unexpected(200);
  return view;
}

export type StateWrite = { version: number; state: WorkstreamState; lastEvictions: Eviction[] };

/** Applies the member's own edit; a list pushed past its limit is refused (422 limit:state). */
export async function patchWorkstreamState(
  workstreamId: string,
  delta: WorkstreamStateDelta,
  options: ApiOptions = {},
): Promise<StateWrite> {
  const body = await send(
    workstreamPath(workstreamId, "/state"),
    {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      // No `version`: an edit names items by id, so it merges with whatever the agent wrote
      // meanwhile instead of being refused for it; an item the agent removed answers 400.
      body: JSON.stringify({ delta }),
    },
    options,
  );
  if (!isRecord(body) || typeof body.version !== "number" || !isRecord(body.state)) {
    throw unexpected(200);
  }
  return body as unknown as StateWrite;
}

export async function deleteMemoryBlockEntry(
  workstreamId: string,
  entryId: string,
  options: ApiOptions = {},
): Promise<void> {
  await send(
    workstreamPath(workstreamId, `/memory-block/${encodeURIComponent(entryId)}`),
    { method: "DELETE" },
    options,
  );
}

// The workstream API's JSON routes as the chat page calls them. Every failure becomes a
// ChatRequestError with the server's code, or `network:failed` when the request never landed.
import {
  asCompactions,
  asDescription,
  asHistoryPage,
  type ChatCompaction,
  type ChatHistoryPage,
  ChatRequestError,
  isRecord,
  readRequestError,
  type WorkstreamDescription,
} from "./wire";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export type ApiOptions = { fetch?: FetchLike; signal?: AbortSignal };

export function workstreamPath(workstreamId: string, rest = ""): string {
  return `/api/workstreams/${encodeURIComponent(workstreamId)}${rest}`;
}

/** fetch, with network failures turned into a ChatRequestError (aborts pass through). */
export async function request(
  url: string,
  init: RequestInit,
  fetchImpl: FetchLike = (input, options) => fetch(input, options),
): Promise<Response> {
  try {
    return await fetchImpl(url, { credentials: "same-origin", cache: "no-store", ...init });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ChatRequestError("network:failed", `Could not reach the server (${reason}).`);
  }
}

async function getJson<T>(
  url: string,
  parse: (value: unknown) => T | null,
  { fetch: fetchImpl, signal }: ApiOptions,
  init: RequestInit = {},
): Promise<T> {
  const response = await request(url, { ...init, signal }, fetchImpl);
  if (!response.ok) throw await readRequestError(response);
  const parsed = parse(await response.json());
  if (parsed === null) {
    throw new ChatRequestError("internal:response", "The server sent an unexpected answer.", {
      status: response.status,
    });
  }
  return parsed;
}

export function fetchWorkstream(
  workstreamId: string,
  options: ApiOptions = {},
): Promise<WorkstreamDescription> {
  return getJson(workstreamPath(workstreamId), asDescription, options);
}

export function fetchHistoryPage(
  workstreamId: string,
  { beforeMessageId, take }: { beforeMessageId?: string; take?: number } = {},
  options: ApiOptions = {},
): Promise<ChatHistoryPage> {
  const query = new URLSearchParams();
  if (take !== undefined) query.set("take", String(take));
  if (beforeMessageId) query.set("beforeMessageId", beforeMessageId);
  const suffix = query.size > 0 ? `?${query}` : "";
  return getJson(workstreamPath(workstreamId, `/messages${suffix}`), asHistoryPage, options);
}

/** The workstream's compactions, oldest first. */
export function fetchCompactions(
  workstreamId: string,
  options: ApiOptions = {},
): Promise<ChatCompaction[]> {
  return getJson(workstreamPath(workstreamId, "/compactions"), asCompactions, options);
}

/** A page of a compacted range's original messages, paged like history. */
export function fetchCompactedPage(
  workstreamId: string,
  compactionId: string,
  { beforeMessageId, take }: { beforeMessageId?: string; take?: number } = {},
  options: ApiOptions = {},
): Promise<ChatHistoryPage> {
  const query = new URLSearchParams();
  if (take !== undefined) query.set("take", String(take));
  if (beforeMessageId) query.set("beforeMessageId", beforeMessageId);
  const suffix = query.size > 0 ? `?${query}` : "";
  const path = `/compactions/${encodeURIComponent(compactionId)}/messages${suffix}`;
  return getJson(workstreamPath(workstreamId, path), asHistoryPage, options);
}

export type StopResult = { turnId: string | null; state: string | null };

/** Stops the running turn on the server; answers once it has ended. */
export function stopTurn(workstreamId: string, options: ApiOptions = {}): Promise<StopResult> {
  return getJson(
    workstreamPath(workstreamId, "/stop"),
    (value) =>
      isRecord(value)
        ? {
            turnId: typeof value.turnId === "string" ? value.turnId : null,
            state: typeof value.state === "string" ? value.state : null,
          }
        : null,
    options,
    { method: "POST" },
  );
}

export type ApprovalAnswer = {
  state: "approved" | "denied";
  /** The turn went on (its last approval was answered); else `next` is the one to answer. */
  continued: boolean;
  next: { approvalId: string; toolName: string } | null;
};

/** Approves or denies one approval of a suspended turn; the server goes on with the turn. */
export function answerApproval(
  workstreamId: string,
  {
    turnId,
    approvalId,
    approved,
    reason,
    grantDays,
  }: {
    turnId: string;
    approvalId: string;
    approved: boolean;
    reason?: string;
    /** Approve and remember it for calls like this one, for so many days. */
    grantDays?: number;
  },
  options: ApiOptions = {},
): Promise<ApprovalAnswer> {
  const path = `/turns/${encodeURIComponent(turnId)}/approvals/${encodeURIComponent(approvalId)}`;
  return getJson(
    workstreamPath(workstreamId, path),
    (value) =>
      isRecord(value) && (value.state === "approved" || value.state === "denied")
        ? (value as ApprovalAnswer)
        : null,
    options,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        approved,
        ...(reason ? { reason } : {}),
        ...(grantDays ? { grantDays } : {}),
      }),
    },
  );
}

export type SecurityMode = "ask" | "allowlist" | "auto";
export type Security = { mode: SecurityMode; allowlist: string[] };

/** Sets which tool calls run without asking in the workstream. */
export function setSecurity(
  workstreamId: string,
  security: { securityMode: SecurityMode; allowlist?: string[] },
  options: ApiOptions = {},
): Promise<Security> {
  return getJson(
    workstreamPath(workstreamId),
    (value) => (isRecord(value) && isRecord(value.security) ? (value.security as Security) : null),
    options,
    {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(security),
    },
  );
}

export type Grant = {
  id: string;
  toolName: string;
  approvalKey: string;
  createdAt: string;
  expiresAt: string;
};

export function listGrants(workstreamId: string, options: ApiOptions = {}): Promise<Grant[]> {
  return getJson(
    workstreamPath(workstreamId, "/grants"),
    (value) => (isRecord(value) && Array.isArray(value.grants) ? (value.grants as Grant[]) : null),
    options,
  );
}

export function revokeGrant(
  workstreamId: string,
  grantId: string,
  options: ApiOptions = {},
): Promise<{ id: string }> {
  return getJson(
    workstreamPath(workstreamId, `/grants/${encodeURIComponent(grantId)}`),
    (value) => (isRecord(value) && typeof value.id === "string" ? { id: value.id } : null),
    options,
    { method: "DELETE" },
  );
}

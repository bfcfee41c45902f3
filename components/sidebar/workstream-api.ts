// The workstream API as the sidebar calls it. Failures throw an ApiError carrying the server's
// code and message (safe to show), or a network message when the request never landed.
import type { WorkstreamSummary } from "@/lib/workstreams/types";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function callApi<T>(path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: "same-origin",
      cache: "no-store",
      ...rest,
      headers: json === undefined ? rest.headers : { "content-type": "application/json" },
      body: json === undefined ? rest.body : JSON.stringify(json),
    });
  } catch {
    throw new ApiError("network:failed", "Couldn't reach Workstreams. Check your connection.");
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error =
      body && typeof body === "object" && "error" in body
        ? (body.error as { code?: string; message?: string })
        : {};
    throw new ApiError(
      error.code ?? `http:${response.status}`,
      error.message ?? "Something went wrong. Try again.",
    );
  }
  return body as T;
}

export type GroupPage = { workstreams: WorkstreamSummary[]; hasMore: boolean; page: number };

export const workstreamApi = {
  createGroup: () =>
    callApi<WorkstreamSummary>("/api/workstreams", { method: "POST", json: { mode: "group" } }),
  rename: (id: string, title: string) =>
    callApi<WorkstreamSummary>(`/api/workstreams/${encodeURIComponent(id)}`, {
      method: "PATCH",
      json: { title },
    }),
  archive: (id: string) =>
    callApi<WorkstreamSummary>(`/api/workstreams/${encodeURIComponent(id)}/archive`, {
      method: "POST",
    }),
  unarchive: (id: string) =>
    callApi<WorkstreamSummary>(`/api/workstreams/${encodeURIComponent(id)}/unarchive`, {
      method: "POST",
    }),
  remove: (id: string) =>
    callApi<{ id: string }>(`/api/workstreams/${encodeURIComponent(id)}`, { method: "DELETE" }),
  groups: (page: number, includeArchived: boolean) =>
    callApi<GroupPage>(
      `/api/workstreams?mode=group&core=false&page=${page}&includeArchived=${includeArchived}`,
    ),
  list: (query: string) =>
    callApi<{ workstreams: WorkstreamSummary[] }>(`/api/workstreams?${query}`),
  completeOnboarding: () =>
    callApi<{ provisioned: WorkstreamSummary[] }>("/api/onboarding/complete", { method: "POST" }),
};

// The workstream API as the sidebar calls it, through the app's one JSON client (failures throw
// its ApiError).
import { callApi } from "@/lib/api-client/call-api";
import type { WorkstreamSummary } from "@/lib/workstreams/types";

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

"use client";
// The admin workstream list's state: filters, page, loading, and refetching when the filters
// change or the organization's live channel reports a change (debounced: a burst of changes
// costs one request).
import { useCallback, useEffect, useRef, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import type { OrganizationOverview } from "@/lib/admin/overview";
import type { AdminKind, AdminWorkstream } from "@/lib/admin/workstreams";
import { ApiError, callApi } from "@/lib/api-client/call-api";

export type AdminListData = {
  workstreams: AdminWorkstream[];
  page: number;
  hasMore: boolean;
  total: number;
  overview: OrganizationOverview;
};

export type Filters = {
  q: string;
  kind: AdminKind | "all";
  status: "all" | "regular" | "archived";
  running: boolean;
};

export const NO_FILTERS: Filters = { q: "", kind: "all", status: "all", running: false };

function queryOf(filters: Filters, page: number): string {
  const query = new URLSearchParams();
  if (filters.q.trim()) query.set("q", filters.q.trim());
  if (filters.kind !== "all") query.set("kind", filters.kind);
  if (filters.status !== "all") query.set("status", filters.status);
  if (filters.running) query.set("running", "true");
  if (page > 1) query.set("page", String(page));
  return query.size ? `?${query}` : "";
}

export function useAdminWorkstreams(initial: AdminListData) {
  const [data, setData] = useState(initial);
  const [filters, setFilters] = useState(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  // The server rendered the unfiltered first page; only other queries need loading.
  const shown = useRef(queryOf(NO_FILTERS, 1));

  const load = useCallback(async (nextFilters: Filters, nextPage: number) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    try {
      const next = await callApi<AdminListData>(
        `/api/admin/workstreams${queryOf(nextFilters, nextPage)}`,
        { signal: controller.signal },
      );
      if (!controller.signal.aborted) {
        setData(next);
        setError(null);
      }
    } catch (failure) {
      if (controller.signal.aborted) return;
      setError(failure instanceof ApiError ? failure.message : "Couldn't load workstreams.");
    } finally {
      if (inFlight.current === controller) setLoading(false);
    }
  }, []);

  // Filters and page changes load at once, typing in the search box after a pause.
  useEffect(() => {
    const key = queryOf(filters, page);
    if (key === shown.current) return;
    const timer = setTimeout(() => {
      shown.current = key;
      void load(filters, page);
    }, 250);
    return () => clearTimeout(timer);
  }, [filters, page, load]);

  const liveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ filters, page });
  useEffect(() => {
    latest.current = { filters, page };
  });
  useLiveEvents(
    () => {
      clearTimeout(liveTimer.current);
      liveTimer.current = setTimeout(
        () => void load(latest.current.filters, latest.current.page),
        400,
      );
    },
    { scope: "organization" },
  );
  useEffect(() => () => clearTimeout(liveTimer.current), []);

  return {
    data,
    filters,
    page,
    loading,
    error,
    setFilter: <K extends keyof Filters>(key: K, value: Filters[K]) => {
      setFilters((current) => ({ ...current, [key]: value }));
      setPage(1);
    },
    clearFilters: () => {
      setFilters(NO_FILTERS);
      setPage(1);
    },
    setPage,
    reload: () => load(filters, page),
  };
}

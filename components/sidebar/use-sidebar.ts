"use client";
// The sidebar's state and actions: server data first, live changes merged in, a full reload
// after the live channel reconnects, paging of group workstreams, and the actions with their
// confirmations and errors.
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useReducer, useState } from "react";
import { type LiveClientEvent, useLiveEvents } from "@/components/live/use-live-events";
import type { ConfirmRequest } from "@/components/ui/confirm-dialog";
import { ApiError, callApi } from "@/lib/api-client/call-api";
import type { SidebarData } from "@/lib/workstreams/sidebar";
import type { ActivityEntry, WorkstreamSummary } from "@/lib/workstreams/types";
import { type SidebarState, sidebarReducer } from "./sidebar-state";
import { workstreamApi } from "./workstream-api";

function initialState(data: SidebarData): SidebarState {
  return {
    onboarding: data.onboarding,
    direct: data.direct,
    core: data.core,
    groups: data.groups.workstreams,
    hasMore: data.groups.hasMore,
    page: 1,
    showArchived: false,
    activity: data.activity,
  };
}

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : "Something went wrong. Try again.";

export function useSidebar(data: SidebarData) {
  const router = useRouter();
  const pathname = usePathname();
  const [state, dispatch] = useReducer(sidebarReducer, data, initialState);
  // New server data (router.refresh, another organization) replaces what the sidebar holds.
  const [shownData, setShownData] = useState(data);
  if (shownData !== data) {
    setShownData(data);
    dispatch({ type: "reset", state: initialState(data) });
  }
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [creating, setCreating] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [confirmPending, setConfirmPending] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  const currentId = pathname.startsWith("/w/")
    ? decodeURIComponent(pathname.slice(3).split("/")[0] ?? "")
    : null;

  const reload = useCallback(async (showArchived: boolean) => {
    try {
      const [direct, core, groups, activity, onboarding] = await Promise.all([
        workstreamApi.list("mode=direct"),
        workstreamApi.list("mode=group&core=true"),
        workstreamApi.groups(1, showArchived),
        callApi<{ activity: ActivityEntry[] }>("/api/activity"),
        callApi<{ state: "onboarding" | "completed" }>("/api/onboarding"),
      ]);
      dispatch({
        type: "reset",
        state: {
          onboarding: onboarding.state,
          direct: direct.workstreams,
          core: core.workstreams,
          groups: groups.workstreams,
          hasMore: groups.hasMore,
          page: 1,
          showArchived,
          activity: activity.activity,
        },
      });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, []);

  useLiveEvents((event: LiveClientEvent) => {
    if (event.type === "workstream") dispatch({ type: "upsert", workstream: event.workstream });
    else if (event.type === "workstream_deleted") {
      dispatch({ type: "remove", workstreamId: event.workstreamId });
    } else if (event.type === "activity") dispatch({ type: "activity", entry: event.entry });
    else if (event.type === "onboarding") dispatch({ type: "onboarding", state: event.state });
    else if (event.type === "reconnected" || event.type === "refresh") {
      void reload(state.showArchived);
    }
  });

  const loadMore = useCallback(async () => {
    if (loadingMore || !state.hasMore) return;
    setLoadingMore(true);
    try {
      const next = await workstreamApi.groups(state.page + 1, state.showArchived);
      dispatch({ type: "groups", ...next, append: true });
    } catch (failure) {
      // A page past the end (rows deleted meanwhile) just means there is nothing more.
      if (failure instanceof ApiError && failure.code === "bad_request:page") {
        dispatch({
          type: "groups",
          workstreams: [],
          hasMore: false,
          page: state.page,
          append: true,
        });
      } else setError(messageOf(failure));
    } finally {
      setLoadingMore(false);
    }
  }, [loadingMore, state.hasMore, state.page, state.showArchived]);

  const toggleArchived = useCallback(async (value: boolean) => {
    dispatch({ type: "showArchived", value });
    try {
      const first = await workstreamApi.groups(1, value);
      dispatch({ type: "groups", ...first, append: false });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, []);

  const create = useCallback(async () => {
    setCreating(true);
    setError(null);
    try {
      const workstream = await workstreamApi.createGroup();
      dispatch({ type: "upsert", workstream });
      router.push(`/w/${encodeURIComponent(workstream.id)}`);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setCreating(false);
    }
  }, [router]);

  const finishOnboarding = useCallback(async () => {
    setFinishing(true);
    setError(null);
    try {
      const result = await workstreamApi.completeOnboarding();
      for (const workstream of result.provisioned) dispatch({ type: "upsert", workstream });
      dispatch({ type: "onboarding", state: "completed" });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setFinishing(false);
    }
  }, []);

  const rename = useCallback(async (id: string, title: string) => {
    try {
      dispatch({ type: "upsert", workstream: await workstreamApi.rename(id, title) });
      return null;
    } catch (failure) {
      return messageOf(failure);
    }
  }, []);

  const ask = (request: ConfirmRequest) => {
    setConfirmError(null);
    setConfirm(request);
  };

  const archive = (workstream: WorkstreamSummary) =>
    ask({
      title: `Archive “${workstream.title}”?`,
      body: "It leaves your list and takes no new messages. You can bring it back from Show archived.",
      confirmLabel: "Archive",
      onConfirm: async () => {
        dispatch({ type: "upsert", workstream: await workstreamApi.archive(workstream.id) });
      },
    });

  const remove = (workstream: WorkstreamSummary) =>
    ask({
      title: `Delete “${workstream.title}”?`,
      body: "Its messages, history and memory are deleted for good. This cannot be undone.",
      confirmLabel: "Delete",
      tone: "danger",
      onConfirm: async () => {
        await workstreamApi.remove(workstream.id);
        dispatch({ type: "remove", workstreamId: workstream.id });
        if (currentId === workstream.id) router.push("/");
      },
    });

  // Unarchiving loses nothing and is undone by archiving, so it needs no confirmation.
  const unarchive = async (workstream: WorkstreamSummary) => {
    setError(null);
    try {
      dispatch({ type: "upsert", workstream: await workstreamApi.unarchive(workstream.id) });
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const runConfirm = async () => {
    if (!confirm) return;
    setConfirmPending(true);
    setConfirmError(null);
    try {
      await confirm.onConfirm();
      setConfirm(null);
    } catch (failure) {
      setConfirmError(messageOf(failure));
    } finally {
      setConfirmPending(false);
    }
  };

  return {
    state,
    currentId,
    error,
    dismissError: () => setError(null),
    loadingMore,
    creating,
    finishing,
    loadMore,
    toggleArchived,
    create,
    finishOnboarding,
    actions: { rename, archive, unarchive, remove },
    confirm: {
      request: confirm,
      pending: confirmPending,
      error: confirmError,
      cancel: () => setConfirm(null),
      run: runConfirm,
    },
  };
}

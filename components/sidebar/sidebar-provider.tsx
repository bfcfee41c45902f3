"use client";
// Holds the sidebar's state above the shell. On phones the sidebar is mounted only while its
// drawer is open, so the lists, live changes and a pending confirmation live here and survive
// the drawer closing; the confirmation dialog is rendered here for the same reason.
import { createContext, type ReactNode, useContext } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { SidebarData } from "@/lib/workstreams/sidebar";
import { useSidebar } from "./use-sidebar";

type SidebarContextValue = { data: SidebarData; sidebar: ReturnType<typeof useSidebar> };

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebarContext(): SidebarContextValue {
  const value = useContext(SidebarContext);
  if (!value) throw new Error("The workstreams sidebar must be rendered inside <SidebarProvider>.");
  return value;
}

export function SidebarProvider({ data, children }: { data: SidebarData; children: ReactNode }) {
  const sidebar = useSidebar(data);
  return (
    <SidebarContext.Provider value={{ data, sidebar }}>
      {children}
      <ConfirmDialog
        request={sidebar.confirm.request}
        pending={sidebar.confirm.pending}
        error={sidebar.confirm.error}
        onCancel={sidebar.confirm.cancel}
        onConfirm={() => void sidebar.confirm.run()}
      />
    </SidebarContext.Provider>
  );
}

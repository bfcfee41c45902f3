// The workstreams sidebar. Later issues pass the workstream list as children; without children it
// shows the empty state. The shell decides where it sits (a column on desktop, a drawer on phones).
import type { ReactNode } from "react";

export function Sidebar({ children }: { children?: ReactNode }) {
  return (
    <nav aria-label="Workstreams" className="flex min-h-0 flex-1 flex-col overflow-y-auto p-3">
      {children ?? <SidebarEmptyState />}
    </nav>
  );
}

export function SidebarEmptyState() {
  return (
    <div className="px-2 py-1.5">
      <h2 className="text-xs font-medium text-fg-subtle">Workstreams</h2>
      <p className="mt-3 text-[13px] leading-5 text-fg-muted">No workstreams yet.</p>
      <p className="mt-1 text-[13px] leading-5 text-fg-subtle">
        The workstreams you start will be listed here.
      </p>
    </div>
  );
}

// The chat's title bar: the agent and the workstream, and the offline-model badge.
import type { ReactNode } from "react";
import { AgentAvatar } from "./agent-avatar";

export function ChatHeader({
  title,
  agentName,
  subtitle,
  actions,
}: {
  title: string;
  agentName: string;
  subtitle: string;
  actions?: ReactNode;
}) {
  return (
    // Below 768px the shell's menu and user buttons float over this bar's ends (one bar, not two).
    <div className="flex h-14 shrink-0 items-center gap-3 border-b border-border px-4 max-md:pr-14 max-md:pl-13 md:px-6">
      <AgentAvatar name={agentName} />
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-sm font-semibold text-fg">{title}</h1>
        <p className="truncate text-xs text-fg-subtle">{subtitle}</p>
      </div>
      {actions}
    </div>
  );
}

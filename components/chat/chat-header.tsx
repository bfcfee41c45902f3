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
    <div className="flex h-14 shrink-0 items-center gap-3 border-b border-border px-4 sm:px-6">
      <AgentAvatar name={agentName} />
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-sm font-semibold text-fg">{title}</h1>
        <p className="truncate text-xs text-fg-subtle">{subtitle}</p>
      </div>
      {actions}
    </div>
  );
}

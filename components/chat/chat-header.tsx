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
    // On a phone the agent's mark gives its room to the title: the subtitle names the agent.
    <div className="flex h-14 shrink-0 items-center gap-2 border-b border-border px-4 max-md:pr-14 max-md:pl-13 sm:gap-3 md:px-6">
      <span className="contents max-sm:hidden">
        <AgentAvatar name={agentName} />
      </span>
      <div className="min-w-0 flex-1">
        {/* Cut short on narrow screens: the whole title is in the tooltip. */}
        <h1 className="truncate text-sm font-semibold text-fg" title={title}>
          {title}
        </h1>
        <p className="truncate text-xs text-fg-subtle" title={subtitle}>
          {subtitle}
        </p>
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-1">{actions}</div> : null}
    </div>
  );
}

// The first screen of a new workstream: who is here and how to begin. The agent opens with its
// configured greeting (no model call, nothing stored): the same words its first turn's preamble
// says while it prepares.
import type { ReactNode } from "react";
import { AgentAvatar } from "./agent-avatar";

export function EmptyChat({
  agentName,
  greeting,
  children,
}: {
  agentName: string;
  greeting?: string | null;
  children?: ReactNode;
}) {
  return (
    <div className="m-auto flex w-full max-w-lg flex-col items-center gap-6 py-10 text-center">
      <div className="flex flex-col items-center gap-3">
        <AgentAvatar name={agentName} size="lg" />
        <div>
          <h2 className="text-lg font-semibold tracking-tight text-fg">Start with {agentName}</h2>
          {greeting ? (
            <p data-testid="agent-greeting" className="mt-1 text-sm text-fg-muted">
              {greeting}
            </p>
          ) : (
            <p className="mt-1 text-sm text-fg-muted">
              Ask a question, share a plan, or hand over a task. This thread keeps its history.
            </p>
          )}
        </div>
      </div>
      {children}
    </div>
  );
}

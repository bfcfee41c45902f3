// What the chat does when a request of its transport fails: the notice it shows (if any), whether
// the failure refused the message being sent, and how it looks at the workstream again. A pure
// function of the error and the pending send, so each case reads as one line of policy.
import type { Sending } from "@/lib/chat-client/chat-state";
import { ChatRequestError } from "@/lib/chat-client/wire";

export type ErrorOutcome = {
  notice: { message: string; tone: "error" | "info" } | null;
  /** The send the server refused: its turn view goes back, its text to the composer. */
  refused: Sending | null;
  /**
   * What to do next: follow what runs (`sync`), reload the latest messages (`resync`), or show
   * the connection as lost. `later`: only after the failed request has settled (a request
   * started meanwhile would replace it).
   */
  next: { action: "sync" | "resync"; later: boolean } | { action: "connection-lost" } | null;
};

export function errorOutcome(error: Error, sending: Sending | null): ErrorOutcome {
  const known = error instanceof ChatRequestError ? error : null;
  const code = known?.code ?? "client:error";
  const refused = known && sending && known.messageId === sending.id ? sending : null;
  const info = (message: string) => ({ message, tone: "info" as const });
  if (code === "conflict:turn_active" && known?.details.approvalId) {
    return {
      notice: info(
        "The agent is waiting for your approval above. Answer it, or stop, to send more.",
      ),
      refused,
      next: { action: "resync", later: true },
    };
  }
  if (code === "conflict:turn_active") {
    return {
      notice: info("A reply is already running here (perhaps from another tab). Following it."),
      refused,
      next: { action: "sync", later: true },
    };
  }
  if (code === "conflict:duplicate_message") {
    return {
      notice: info("That message was already sent."),
      refused,
      next: { action: "resync", later: false },
    };
  }
  if (code === "network:failed" && refused) {
    return {
      notice: {
        message: "Couldn't reach the server. Your message is still in the box; send it again.",
        tone: "error",
      },
      refused,
      next: null,
    };
  }
  if (code === "network:lost" || code === "network:failed") {
    return { notice: null, refused, next: { action: "connection-lost" } };
  }
  return { notice: { message: error.message, tone: "error" }, refused, next: null };
}

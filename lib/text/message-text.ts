// The plain text of a UI message: what a prompt, a search or a job reads when it needs the words
// of a message and none of its tool calls, files or data.
import type { UIMessage } from "ai";

/** The message's non-empty text parts, one per line. */
export function textOf(message: Pick<UIMessage, "parts"> | undefined): string {
  if (!message) return "";
  return message.parts
    .flatMap((part) => (part.type === "text" && part.text ? [part.text] : []))
    .join("\n");
}

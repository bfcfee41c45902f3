// Where compacted history sits in the chat. Every compacted range is older than the messages
// after the latest compaction's last one (each range starts where the one before ended), so the
// list shows those messages, and above them, once the reader has scrolled back that far, one
// marker per range. The compacted messages themselves are not in the list; a marker loads them
// on request.
import type { ChatCompaction, ChatMessage } from "./wire";

export type CompactedView = {
  /** The messages after the latest compacted range, in order. */
  visible: ChatMessage[];
  /**
   * The list reaches back to the latest range (its last message is loaded), so older history is
   * all compacted: paging stops and the markers show.
   */
  reachedCompacted: boolean;
};

export function splitCompacted(
  messages: ChatMessage[],
  compactions: readonly Pick<ChatCompaction, "lastMessageId">[],
): CompactedView {
  const boundary = compactions.at(-1)?.lastMessageId;
  if (!boundary) return { visible: messages, reachedCompacted: false };
  const at = messages.findIndex((message) => message.id === boundary);
  if (at === -1) return { visible: messages, reachedCompacted: false };
  return { visible: messages.slice(at + 1), reachedCompacted: true };
}

// Merging pages of history into the chat's message list without duplicates: older pages go in
// front (scrolling up), a fresh latest page updates and extends the end (after a resync).
import type { ChatMessage } from "./wire";

/** Older messages first, skipping any the list already has. */
export function prependOlder(current: ChatMessage[], older: ChatMessage[]): ChatMessage[] {
  const known = new Set(current.map((message) => message.id));
  const fresh = older.filter((message) => !known.has(message.id));
  return fresh.length === 0 ? current : [...fresh, ...current];
}

/**
 * Applies the latest page: known messages are replaced by their stored version, new ones are
 * added after the last message they follow, so what the server has wins.
 */
export function mergeLatest(current: ChatMessage[], latest: ChatMessage[]): ChatMessage[] {
  const byId = new Map(latest.map((message) => [message.id, message]));
  const merged = current.map((message) => byId.get(message.id) ?? message);
  let anchor = -1;
  for (const message of latest) {
    const index = merged.findIndex((m) => m.id === message.id);
    if (index !== -1) {
      anchor = index;
      continue;
    }
    const at = anchor === -1 ? merged.length : anchor + 1;
    merged.splice(at, 0, message);
    anchor = at;
  }
  return merged;
}

/** The text of a user message, as the composer or Retry sends it again. */
export function messageText(message: ChatMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

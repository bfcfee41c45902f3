// The member's edits of the workstream state as the panel makes them: a form's draft of one item,
// the delta that saves it (only the fields that changed), and the sentence a refused edit shows.
import type { ChatRequestError } from "@/lib/chat-client/wire";
import type {
  StateItem,
  StateListName,
  TASK_STATUSES,
  WorkstreamStateDelta,
} from "@/lib/state/schema";
import { STATE_LIST_LABELS } from "./labels";

export type TaskStatus = (typeof TASK_STATUSES)[number];
export type AnyStateItem = StateItem<StateListName>;

/** What an item's form holds. Confidence is in percent, as the form shows it. */
export type Draft = {
  text: string;
  rationale: string;
  confidence: number;
  status: TaskStatus;
  binding: boolean;
};

export const NEW_DECISION_CONFIDENCE = 70;

export function draftOf(item: AnyStateItem | null): Draft {
  return {
    text: item?.text ?? "",
    rationale: item && "rationale" in item ? item.rationale : "",
    confidence:
      item && "confidence" in item ? Math.round(item.confidence * 100) : NEW_DECISION_CONFIDENCE,
    status: item && "status" in item ? item.status : "open",
    binding: item && "binding" in item ? item.binding : true,
  };
}

function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return NEW_DECISION_CONFIDENCE;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** The fields a list's items carry beyond their text, as a new item or update sends them. */
function fields(list: StateListName, draft: Draft): Record<string, unknown> {
  switch (list) {
    case "keyDecisions":
      return {
        text: draft.text.trim(),
        rationale: draft.rationale.trim(),
        confidence: clampPercent(draft.confidence) / 100,
      };
    case "tasks":
      return { text: draft.text.trim(), status: draft.status };
    case "activeConstraints":
      return { text: draft.text.trim(), binding: draft.binding };
    default:
      return { text: draft.text.trim() };
  }
}

/** The delta that adds a new item made from `draft`. */
export function addDelta(list: StateListName, draft: Draft): WorkstreamStateDelta {
  return { [list]: { add: [fields(list, draft)] } } as WorkstreamStateDelta;
}

/** The delta that changes `item` to read as `draft`, or null when nothing changed. */
export function updateDelta(
  list: StateListName,
  item: AnyStateItem,
  draft: Draft,
): WorkstreamStateDelta | null {
  const before = fields(list, draftOf(item));
  const after = fields(list, draft);
  const changed = Object.fromEntries(
    Object.entries(after).filter(([field, value]) => before[field] !== value),
  );
  if (Object.keys(changed).length === 0) return null;
  return { [list]: { update: [{ id: item.id, ...changed }] } } as WorkstreamStateDelta;
}

export function removeDelta(list: StateListName, id: string): WorkstreamStateDelta {
  return { [list]: { remove: [id] } } as WorkstreamStateDelta;
}

/**
 * The server's sentence for a refused edit, with the specifics it sent alongside: which list is
 * full and how much it holds, or how long a text may be.
 */
export function editErrorSentence(error: ChatRequestError): string {
  const { details } = error;
  if (error.code === "limit:state" && typeof details.list === "string") {
    const label = STATE_LIST_LABELS[details.list as StateListName];
    if (label && typeof details.limit === "number") {
      const items = details.limit === 1 ? "item" : "items";
      return `${error.message} “${label.title}” holds at most ${details.limit} ${items}: delete one first.`;
    }
  }
  if (error.code === "bad_request:too_long" && typeof details.maximum === "number") {
    return `${error.message} Keep it to ${details.maximum} characters.`;
  }
  if (error.code === "bad_request:validation" && details.reason === "unknown_id") {
    return "This item is no longer in the workstream state (the agent may have removed it).";
  }
  return error.message;
}

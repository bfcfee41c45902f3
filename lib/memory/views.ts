// What the API shows of a memory. The member sees their own memories in full, except where they
// came from beyond a count (the ids point into their conversations, which the list does not
// open). An organization memory is shown alike to members and admins, without sources or owner:
// admins never receive a member's memory, nor any source of one.
import { AppError } from "@/lib/kernel/errors";
import type { Memory } from "./store";

export type OwnMemoryView = {
  id: string;
  scope: "member" | "agent";
  /** With `agent` scope, the one agent it is for. */
  agentId: string | null;
  importance: number;
  text: string;
  /** How many messages it was learned from. */
  sourceCount: number;
  createdAt: string;
  updatedAt: string;
};

export type OrganizationMemoryView = {
  id: string;
  importance: number;
  text: string;
  createdAt: string;
  updatedAt: string;
};

export function ownMemoryView(memory: Memory): OwnMemoryView {
  return {
    id: memory.id,
    scope: memory.scope === "agent" ? "agent" : "member",
    agentId: memory.agentId,
    importance: memory.importance,
    text: memory.text,
    sourceCount: memory.sources.length,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
  };
}

export function organizationMemoryView(memory: Memory): OrganizationMemoryView {
  return {
    id: memory.id,
    importance: memory.importance,
    text: memory.text,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
  };
}

/** A search box's text: null when empty; text without a letter or digit finds nothing and is refused. */
export function searchText(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  if (!trimmed) return null;
  if (!/[\p{L}\p{N}]/u.test(trimmed)) throw new AppError("bad_request:q");
  return trimmed;
}

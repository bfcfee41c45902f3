// The events background functions are triggered by. Each carries ids only, never content: the
// functions read what they need from the database, so an event in the outbox, in Inngest's
// dashboard or in a log never holds a member's text.
import { z } from "zod";
import { defineEvent } from "./define";

const id = z.string().min(1).max(200);

/**
 * A turn ended and kept its answer: written in the turn's closing transaction (the outbox). Every
 * completed turn sends it; a failed or stopped turn that kept a partial answer sends it only when
 * its history is due for compaction (the only work that applies to it).
 */
export const turnCompleted = defineEvent(
  "workstreams/turn.completed",
  z.strictObject({
    turnId: id,
    workstreamId: id,
    organizationId: id,
    /** The workstream's owner when the turn ended; null for a workstream without one. */
    userId: id.nullable(),
    /**
     * Whether the turn completed (rather than failing or being stopped with a partial answer).
     * Events written before failed turns sent one were all of completed turns.
     */
    completed: z.boolean().default(true),
    /** Whether the workstream still had its default title (a title job has work to do). */
    untitled: z.boolean(),
    /**
     * Whether the owner was still onboarding when the turn ended: its facts are remembered at
     * once rather than by the periodic digest. Absent in events written before it existed.
     */
    onboarding: z.boolean().optional(),
    /** Whether its uncompacted history passed the compaction threshold (lib/compaction). */
    compact: z.boolean().default(false),
    /**
     * Whether the completed turn's messages lay out a procedure (a skill job has work to do).
     * Events written before it existed start no skill job.
     */
    skills: z.boolean().optional(),
  }),
);

export type TurnCompletedData = z.infer<typeof turnCompleted.schema>;

/**
 * A workstream's memory block reached the size at which its oldest notes are folded into its
 * summary: written by the statement that added the note (the outbox).
 */
export const memoryBlockFull = defineEvent(
  "workstreams/memory-block.full",
  z.strictObject({ workstreamId: id, organizationId: id }),
);

export type MemoryBlockFullData = z.infer<typeof memoryBlockFull.schema>;

/**
 * A suspended turn's approvals reach their deadline: written by the statement that suspends the
 * turn, with `ts` at the deadline so the run starts then (on either engine).
 */
export const approvalsDue = defineEvent(
  "workstreams/approvals.due",
  z.strictObject({
    turnId: id,
    workstreamId: id,
    organizationId: id,
    approvalIds: z.array(id).min(1).max(100),
  }),
);

export type ApprovalsDueData = z.infer<typeof approvalsDue.schema>;

/**
 * A deleted workstream's or organization's files are to be removed from storage: written by the
 * statement that deletes it (the outbox), so the objects go even when the delete's process dies.
 * An organization's (queued by a trigger on its row, see migration 0016) names no workstream.
 */
export const workstreamFilesDeleted = defineEvent(
  "workstreams/files.deleted",
  z.strictObject({
    workstreamId: id.optional(),
    organizationId: id,
    prefix: z.string().min(3).max(500),
  }),
);

/** The daily sweep of uploads never attached to a message: one event per day, `ts` its time. */
export const filesSweepDue = defineEvent(
  "workstreams/files.sweep",
  z.strictObject({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
);

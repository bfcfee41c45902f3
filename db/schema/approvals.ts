// Tool approvals and the authority over tool calls: the approvals a suspended turn waits for, the
// audit of every decision made about a tool call, the organization's tool policy and the grants
// a member remembered. Written only by lib/approvals.
import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";
import { turns } from "./turns";
import { workstreams } from "./workstreams";

export const APPROVAL_STATES = ["pending", "approved", "denied", "expired", "cancelled"] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/**
 * One tool call a turn asked a person about. The id is the AI SDK's approval id (it is in the
 * persisted message, where the chat's card reads it). Answering compare-and-sets `state` from
 * pending, so an approval is answered once whatever the number of tabs, servers or retries.
 */
export const approvals = pgTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    turnId: text("turn_id")
      .notNull()
      .references(() => turns.id, { onDelete: "cascade" }),
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    toolName: text("tool_name").notNull(),
    /** SHA-256 (hex) of the arguments canonicalized by RFC 8785: what was asked, without it. */
    argsHash: text("args_hash").notNull(),
    /** The call's place among the turn's calls: approvals are asked in this order. */
    position: integer("position").notNull(),
    state: text("state", { enum: APPROVAL_STATES }).notNull().default("pending"),
    /** The answer's reason, as the member gave it (the model sees it with a denial). */
    reason: text("reason"),
    /** Who answered: a user id; null for the expiry. */
    decidedBy: text("decided_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [index("approvals_turn_idx").on(t.turnId, t.position)],
);

export const APPROVAL_DECISIONS = ["approved", "denied"] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** Who or what decided: a person, the expiry, or (with the authority stack) policy and the like. */
export const DECISION_SOURCES = ["policy", "grant", "mode", "user", "guard", "timeout"] as const;
export type DecisionSource = (typeof DECISION_SOURCES)[number];

/**
 * The audit of tool-call decisions, append-only: who, when, which tool, a hash of the arguments
 * (never the arguments), the decision, its reason and its source. No foreign keys to turns or
 * workstreams: the record outlives what it is about.
 */
export const approvalDecisions = pgTable(
  "approval_decisions",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workstreamId: text("workstream_id").notNull(),
    turnId: text("turn_id").notNull(),
    /** The approval answered, when a person was asked. */
    approvalId: text("approval_id"),
    toolName: text("tool_name").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    argsHash: text("args_hash").notNull(),
    decision: text("decision", { enum: APPROVAL_DECISIONS }).notNull(),
    source: text("source", { enum: DECISION_SOURCES }).notNull(),
    reason: text("reason"),
    /** The user who decided; null when no person did (timeout, policy, guard). */
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("approval_decisions_workstream_idx").on(t.workstreamId, t.decidedAt)],
);

/**
 * The organization's word on a tool, checked before anything else: `forbidden` calls are denied
 * without asking, `requires_approval` ones are always asked (whatever the workstream's mode or
 * grants), `allowed` leaves it to the workstream. A tool without a row is allowed.
 */
export const TOOL_POLICY_RULES = ["allowed", "requires_approval", "forbidden"] as const;
export type ToolPolicyRule = (typeof TOOL_POLICY_RULES)[number];

export const toolPolicies = pgTable(
  "tool_policies",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    toolName: text("tool_name").notNull(),
    rule: text("rule", { enum: TOOL_POLICY_RULES }).notNull(),
    updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.toolName] })],
);

/**
 * "Always allow this": a member's standing approval of a tool in one workstream, for calls with
 * the same approval key (send_message: the target workstream), until it expires.
 */
export const toolGrants = pgTable(
  "tool_grants",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    toolName: text("tool_name").notNull(),
    /** What the grant covers: calls whose key is this ("*": any call of the tool). */
    approvalKey: text("approval_key").notNull(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("tool_grants_workstream_idx").on(t.workstreamId, t.toolName, t.expiresAt)],
);

// Where each member stands in onboarding, per organization (what the bootstrap provisions next).
// Written only by lib/workstreams/onboarding.ts.
import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";

export const ONBOARDING_STATES = ["onboarding", "completed"] as const;
export type OnboardingState = (typeof ONBOARDING_STATES)[number];

export const memberOnboarding = pgTable(
  "member_onboarding",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    state: text("state", { enum: ONBOARDING_STATES }).notNull().default("onboarding"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

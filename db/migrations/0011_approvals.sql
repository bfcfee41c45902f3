CREATE TABLE "approval_decisions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"workstream_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"approval_id" text,
	"tool_name" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"args_hash" text NOT NULL,
	"decision" text NOT NULL,
	"source" text NOT NULL,
	"reason" text,
	"decided_by" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"turn_id" text NOT NULL,
	"workstream_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"args_hash" text NOT NULL,
	"position" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "job_events" ADD COLUMN "ts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "resumed_offset" bigint;--> statement-breakpoint
ALTER TABLE "workstreams" ADD COLUMN "unread_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_decisions_workstream_idx" ON "approval_decisions" USING btree ("workstream_id","decided_at");--> statement-breakpoint
CREATE INDEX "approvals_turn_idx" ON "approvals" USING btree ("turn_id","position");
CREATE TABLE "failed_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text NOT NULL,
	"run_id" text,
	"organization_id" text,
	"workstream_id" text,
	"attempts" integer NOT NULL,
	"error_code" text NOT NULL,
	"error_message" text NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_events" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"concurrency_key" text,
	"throttle_key" text,
	"debounce_key" text,
	"debounce_deadline" timestamp with time zone,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "failed_jobs" ADD CONSTRAINT "failed_jobs_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "failed_jobs_function_event_idx" ON "failed_jobs" USING btree ("function_id","event_id");--> statement-breakpoint
CREATE INDEX "failed_jobs_org_idx" ON "failed_jobs" USING btree ("organization_id","failed_at");--> statement-breakpoint
CREATE INDEX "job_events_pending_idx" ON "job_events" USING btree ("next_attempt_at") WHERE "job_events"."dispatched_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_function_event_idx" ON "jobs" USING btree ("function_id","event_id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_debounce_idx" ON "jobs" USING btree ("function_id","debounce_key") WHERE "jobs"."state" = 'queued' and "jobs"."debounce_key" is not null;--> statement-breakpoint
CREATE INDEX "jobs_concurrency_idx" ON "jobs" USING btree ("function_id","concurrency_key") WHERE "jobs"."state" = 'running' and "jobs"."concurrency_key" is not null;--> statement-breakpoint
CREATE INDEX "jobs_throttle_idx" ON "jobs" USING btree ("function_id","throttle_key","started_at") WHERE "jobs"."throttle_key" is not null;--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE "jobs"."state" = 'completed';
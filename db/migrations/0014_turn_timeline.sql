ALTER TABLE "turns" ADD COLUMN "timeline" jsonb;--> statement-breakpoint
CREATE INDEX "job_events_turn_idx" ON "job_events" USING btree (("data" ->> 'turnId'));--> statement-breakpoint
CREATE INDEX "jobs_event_idx" ON "jobs" USING btree ("event_id");
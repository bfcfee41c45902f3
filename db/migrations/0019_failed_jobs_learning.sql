ALTER TABLE "failed_jobs" ADD COLUMN "provider_detail" text;--> statement-breakpoint
ALTER TABLE "failed_jobs" ADD COLUMN "member_ids" text[] DEFAULT '{}'::text[] NOT NULL;
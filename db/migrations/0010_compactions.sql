CREATE TABLE "compactions" (
	"id" text PRIMARY KEY NOT NULL,
	"workstream_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"first_message_id" text NOT NULL,
	"last_message_id" text NOT NULL,
	"first_seq" bigint NOT NULL,
	"last_seq" bigint NOT NULL,
	"message_count" integer NOT NULL,
	"summary" text NOT NULL,
	"state_delta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state_changes" jsonb DEFAULT '{"added":[],"evicted":[]}'::jsonb NOT NULL,
	"tokens_before" integer NOT NULL,
	"tokens_after" integer NOT NULL,
	"model" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workstreams" ADD COLUMN "compaction_token" text;--> statement-breakpoint
ALTER TABLE "workstreams" ADD COLUMN "compaction_lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "compactions" ADD CONSTRAINT "compactions_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "compactions_workstream_last_seq_idx" ON "compactions" USING btree ("workstream_id","last_seq");--> statement-breakpoint
CREATE INDEX "workstreams_compacting_idx" ON "workstreams" USING btree ("compaction_lease_expires_at") WHERE "workstreams"."is_compacting";
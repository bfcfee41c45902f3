CREATE TABLE "memory_block_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"workstream_id" text NOT NULL,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workstream_states" (
	"workstream_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"plan" jsonb,
	"last_evictions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"memory_summary" text,
	"memory_summary_entries" integer DEFAULT 0 NOT NULL,
	"memory_summary_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "context" jsonb;--> statement-breakpoint
ALTER TABLE "memory_block_entries" ADD CONSTRAINT "memory_block_entries_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstream_states" ADD CONSTRAINT "workstream_states_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_block_entries_workstream_idx" ON "memory_block_entries" USING btree ("workstream_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin (to_tsvector('english', jsonb_path_query_array("parts", '$[*] ? (@.type == "text").text')));
CREATE TABLE "turn_events" (
	"workstream_id" text NOT NULL,
	"offset" bigint NOT NULL,
	"turn_id" text NOT NULL,
	"chunk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "turn_events_workstream_id_offset_pk" PRIMARY KEY("workstream_id","offset")
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" text PRIMARY KEY NOT NULL,
	"workstream_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text,
	"user_message_id" text NOT NULL,
	"assistant_message_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"error_code" text,
	"server_run_id" text,
	"owner_id" text,
	"lease_expires_at" timestamp with time zone,
	"stop_requested_at" timestamp with time zone,
	"first_offset" bigint,
	"last_offset" bigint,
	"agent_id" text,
	"model" text,
	"usage" jsonb,
	"cost_usd" double precision,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"workstream_id" text NOT NULL,
	"id" text NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"role" text NOT NULL,
	"parts" jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"token_count" integer DEFAULT 0 NOT NULL,
	"turn_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_workstream_id_id_pk" PRIMARY KEY("workstream_id","id")
);
--> statement-breakpoint
CREATE TABLE "workstreams" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"owner_id" text,
	"mode" text NOT NULL,
	"core" boolean DEFAULT false NOT NULL,
	"core_type" text,
	"agent_id" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'regular' NOT NULL,
	"active_run_id" text,
	"is_compacting" boolean DEFAULT false NOT NULL,
	"compaction_summary" text,
	"last_compacted_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "turn_events" ADD CONSTRAINT "turn_events_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_workstream_id_workstreams_id_fk" FOREIGN KEY ("workstream_id") REFERENCES "public"."workstreams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstreams" ADD CONSTRAINT "workstreams_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstreams" ADD CONSTRAINT "workstreams_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "turn_events_turn_idx" ON "turn_events" USING btree ("turn_id");--> statement-breakpoint
CREATE UNIQUE INDEX "turns_one_open_per_workstream" ON "turns" USING btree ("workstream_id") WHERE state in ('pending', 'active', 'suspended');--> statement-breakpoint
CREATE INDEX "turns_workstream_created_idx" ON "turns" USING btree ("workstream_id","created_at");--> statement-breakpoint
CREATE INDEX "turns_lease_idx" ON "turns" USING btree ("state","lease_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_workstream_seq_idx" ON "messages" USING btree ("workstream_id","seq");--> statement-breakpoint
CREATE INDEX "workstreams_owner_idx" ON "workstreams" USING btree ("organization_id","owner_id","mode","status","updated_at");
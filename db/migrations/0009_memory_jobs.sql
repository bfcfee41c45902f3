CREATE TABLE "memory_digest_cursors" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"recent" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"owner_id" text,
	"name" text NOT NULL,
	"normalized_name" text NOT NULL,
	"when_to_use" text NOT NULL,
	"steps" jsonb NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skills_name_length" CHECK (char_length("skills"."name") between 1 and 120),
	CONSTRAINT "skills_when_length" CHECK (char_length("skills"."when_to_use") between 1 and 500),
	CONSTRAINT "skills_steps_count" CHECK (jsonb_array_length("skills"."steps") between 1 and 20)
);
--> statement-breakpoint
ALTER TABLE "memory_digest_cursors" ADD CONSTRAINT "memory_digest_cursors_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skills" ADD CONSTRAINT "skills_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skills" ADD CONSTRAINT "skills_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "skills_name_idx" ON "skills" USING btree ("organization_id",coalesce("owner_id", ''),"normalized_name");--> statement-breakpoint
CREATE INDEX "skills_owner_idx" ON "skills" USING btree ("organization_id","owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "turns_org_ended_idx" ON "turns" USING btree ("organization_id","ended_at") WHERE "turns"."state" = 'completed';
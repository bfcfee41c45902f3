CREATE TABLE "memories" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"owner_id" text,
	"agent_id" text,
	"scope" text NOT NULL,
	"importance" integer DEFAULT 5 NOT NULL,
	"text" text NOT NULL,
	"normalized_text" text NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED NOT NULL,
	"embedding" vector(1536),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memories_text_length" CHECK (char_length("memories"."text") between 1 and 2000),
	CONSTRAINT "memories_importance_range" CHECK ("memories"."importance" between 1 and 10),
	CONSTRAINT "memories_scope_owner" CHECK (("memories"."scope" = 'organization' and "memories"."owner_id" is null and "memories"."agent_id" is null)
        or ("memories"."scope" = 'member' and "memories"."owner_id" is not null and "memories"."agent_id" is null)
        or ("memories"."scope" = 'agent' and "memories"."owner_id" is not null and "memories"."agent_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "memories_dedup_idx" ON "memories" USING btree ("organization_id",coalesce("owner_id", ''),coalesce("agent_id", ''),md5("normalized_text"));--> statement-breakpoint
CREATE INDEX "memories_owner_idx" ON "memories" USING btree ("organization_id","owner_id","importance","updated_at");--> statement-breakpoint
CREATE INDEX "memories_search_idx" ON "memories" USING gin ("search");--> statement-breakpoint
CREATE INDEX "memories_with_vector_idx" ON "memories" USING btree ("organization_id","owner_id") WHERE "memories"."embedding" is not null;--> statement-breakpoint
CREATE INDEX "memories_embedding_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops);
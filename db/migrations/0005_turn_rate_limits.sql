CREATE TABLE "turn_rate_limits" (
	"user_id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"turns" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "turn_rate_limits" ADD CONSTRAINT "turn_rate_limits_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
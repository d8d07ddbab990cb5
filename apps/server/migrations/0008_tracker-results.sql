CREATE TABLE "tracker_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created" integer NOT NULL,
	"failed" integer NOT NULL,
	"duplicates" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracker_results" ADD CONSTRAINT "tracker_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_results_user_idx" ON "tracker_results" USING btree ("user_id","created_at");
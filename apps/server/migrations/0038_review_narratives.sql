CREATE TABLE "review_narratives" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"narrative" jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_narratives" ADD CONSTRAINT "review_narratives_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
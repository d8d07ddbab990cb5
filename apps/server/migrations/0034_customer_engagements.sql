CREATE TABLE "customer_engagements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"engagement_id" text NOT NULL,
	"linked_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracker_hours" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"engagement_id" text NOT NULL,
	"work_date" text NOT NULL,
	"hours" double precision NOT NULL,
	"task_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_engagements" ADD CONSTRAINT "customer_engagements_linked_by_users_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_hours" ADD CONSTRAINT "tracker_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_engagements_engagement_unique" ON "customer_engagements" USING btree ("engagement_id");--> statement-breakpoint
CREATE INDEX "customer_engagements_organization_idx" ON "customer_engagements" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "tracker_hours_engagement_idx" ON "tracker_hours" USING btree ("engagement_id","created_at");
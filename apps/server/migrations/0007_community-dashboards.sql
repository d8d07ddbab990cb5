CREATE TABLE "community_dashboard_images" (
	"dashboard_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	CONSTRAINT "community_dashboard_images_dashboard_id_position_pk" PRIMARY KEY("dashboard_id","position")
);
--> statement-breakpoint
CREATE TABLE "community_dashboard_pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dashboard_id" uuid NOT NULL,
	"user_id" uuid,
	"user_email" text NOT NULL,
	"organization_name" text NOT NULL,
	"aid" text NOT NULL,
	"account_group_name" text NOT NULL,
	"created_dashboard_id" text NOT NULL,
	"mapped" integer NOT NULL,
	"dropped" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community_dashboard_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dashboard_id" uuid NOT NULL,
	"user_id" uuid,
	"author_email" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community_dashboard_votes" (
	"dashboard_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "community_dashboard_votes_dashboard_id_user_id_pk" PRIMARY KEY("dashboard_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "community_dashboards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_dashboard_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"creator_id" uuid,
	"creator_email" text NOT NULL,
	"organization_name" text NOT NULL,
	"account_group_name" text NOT NULL,
	"template" jsonb NOT NULL,
	"references" jsonb NOT NULL,
	"widget_count" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"review_comment" text,
	"reviewer_email" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "community_dashboard_images" ADD CONSTRAINT "community_dashboard_images_dashboard_id_community_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "public"."community_dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboard_pushes" ADD CONSTRAINT "community_dashboard_pushes_dashboard_id_community_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "public"."community_dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboard_pushes" ADD CONSTRAINT "community_dashboard_pushes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboard_reviews" ADD CONSTRAINT "community_dashboard_reviews_dashboard_id_community_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "public"."community_dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboard_reviews" ADD CONSTRAINT "community_dashboard_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboard_votes" ADD CONSTRAINT "community_dashboard_votes_dashboard_id_community_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "public"."community_dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboard_votes" ADD CONSTRAINT "community_dashboard_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_dashboards" ADD CONSTRAINT "community_dashboards_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "community_dashboard_pushes_dashboard_idx" ON "community_dashboard_pushes" USING btree ("dashboard_id");--> statement-breakpoint
CREATE INDEX "community_dashboard_reviews_dashboard_idx" ON "community_dashboard_reviews" USING btree ("dashboard_id","created_at");--> statement-breakpoint
CREATE INDEX "community_dashboards_created_idx" ON "community_dashboards" USING btree ("created_at");
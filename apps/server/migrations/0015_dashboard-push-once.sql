ALTER TABLE "community_dashboard_pushes" ALTER COLUMN "created_dashboard_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "community_dashboard_pushes" ADD COLUMN "push_key" uuid;--> statement-breakpoint
ALTER TABLE "community_dashboard_pushes" ADD COLUMN "status" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "community_dashboard_pushes" ADD COLUMN "known_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "community_dashboard_pushes" ADD CONSTRAINT "community_dashboard_pushes_push_key_unique" UNIQUE("push_key");
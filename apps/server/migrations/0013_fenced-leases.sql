ALTER TABLE "bulk_runs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "lease_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "lease_generation" integer DEFAULT 0 NOT NULL;
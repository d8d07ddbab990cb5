ALTER TABLE "bulk_run_items" ADD COLUMN "side" text DEFAULT 'source' NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "phase" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "target_token_id" uuid;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "target_organization_id" text;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_target_token_id_sealed_tokens_id_fk" FOREIGN KEY ("target_token_id") REFERENCES "public"."sealed_tokens"("id") ON DELETE set null ON UPDATE no action;
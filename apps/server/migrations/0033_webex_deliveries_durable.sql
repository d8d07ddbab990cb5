ALTER TABLE "webex_deliveries" ADD COLUMN "markdown" text;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "file_name" text;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "file_type" text;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "file_content" "bytea";--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "notice" jsonb;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "webex_deliveries" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webex_deliveries_due_idx" ON "webex_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webex_deliveries_subject_idx" ON "webex_deliveries" USING btree ("subject");--> statement-breakpoint
CREATE INDEX "webex_deliveries_failed_idx" ON "webex_deliveries" USING btree ("user_id","finished_at");
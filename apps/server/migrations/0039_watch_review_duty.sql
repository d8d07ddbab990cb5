-- A watch's duty of a monthly review pack (issue 60): the watch's flag, and the pack's key on its report, unique so a
-- month's pack is requested once per watch whatever retries or workers do. Both added without rewriting a row.
ALTER TABLE "report_requests" ADD COLUMN "watch_duty" text;--> statement-breakpoint
ALTER TABLE "watches" ADD COLUMN "monthly_review_pack" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "report_requests_watch_duty_unique" ON "report_requests" USING btree ("watch_duty");
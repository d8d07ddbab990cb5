CREATE TABLE "watch_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"organization_id" text NOT NULL,
	"organization_name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"token_id" uuid,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"lease_generation" integer DEFAULT 0 NOT NULL,
	"watch_id" uuid NOT NULL,
	"account_groups" jsonb NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"trigger" text NOT NULL,
	"score" integer,
	"findings" jsonb,
	"backups" jsonb,
	"changes" jsonb,
	"delivery_status" text DEFAULT 'pending' NOT NULL,
	"delivery_error" text,
	"message" text,
	CONSTRAINT "watch_runs_due_unique" UNIQUE("watch_id","due_at")
);
--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "watch_run_id" uuid;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "watch_run_id" uuid;--> statement-breakpoint
ALTER TABLE "watch_runs" ADD CONSTRAINT "watch_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_runs" ADD CONSTRAINT "watch_runs_token_id_sealed_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."sealed_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_runs" ADD CONSTRAINT "watch_runs_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_runs_watch_idx" ON "watch_runs" USING btree ("watch_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_requests_watch_run_unique" ON "report_requests" USING btree ("watch_run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "backups_watch_run_unique" ON "backups" USING btree ("watch_run_id","aid");
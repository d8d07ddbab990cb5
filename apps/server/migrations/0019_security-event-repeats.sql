ALTER TABLE "security_events" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "security_events" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "security_events" ADD COLUMN "repeat_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "security_events_repeat_key_idx" ON "security_events" USING btree ("repeat_key");
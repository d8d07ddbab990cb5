ALTER TABLE "budget_waits" ADD COLUMN "waiting" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "budget_waits" ADD COLUMN "reading_noun" text;--> statement-breakpoint
ALTER TABLE "budget_waits" ADD COLUMN "reading_done" integer;--> statement-breakpoint
ALTER TABLE "budget_waits" ADD COLUMN "reading_total" integer;
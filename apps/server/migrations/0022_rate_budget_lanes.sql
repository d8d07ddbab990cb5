ALTER TABLE "rate_budgets" ADD COLUMN "interactive_taken" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_budgets" ADD COLUMN "background_taken" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_budgets" ADD COLUMN "in_flight" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_budgets" ADD COLUMN "in_flight_until" timestamp with time zone;
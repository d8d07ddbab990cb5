CREATE TABLE "rate_budgets" (
	"key" text PRIMARY KEY NOT NULL,
	"call_limit" integer,
	"remaining" integer,
	"reset_at" timestamp with time zone,
	"probe_until" timestamp with time zone,
	"granted" integer DEFAULT 0 NOT NULL,
	"probe" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

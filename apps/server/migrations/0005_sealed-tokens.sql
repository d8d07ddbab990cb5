CREATE TABLE "report_reads" (
	"report_id" uuid NOT NULL,
	"key" text NOT NULL,
	"body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_reads_report_id_key_pk" PRIMARY KEY("report_id","key")
);
--> statement-breakpoint
CREATE TABLE "sealed_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "job_id" text;--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "job_id" text;--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_subject" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_link_allowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_reads" ADD CONSTRAINT "report_reads_report_id_report_requests_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."report_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_token_id_sealed_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."sealed_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_requests" ADD CONSTRAINT "report_requests_token_id_sealed_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."sealed_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sso_subject_unique" UNIQUE("sso_subject");--> statement-breakpoint
-- Tokens sealed by earlier versions move into their own table (no key id: the vault tries every key).
UPDATE "report_requests" SET "token_id" = gen_random_uuid() WHERE "token_ciphertext" IS NOT NULL;--> statement-breakpoint
INSERT INTO "sealed_tokens" ("id", "key_id", "sealed") SELECT "token_id", 'legacy', "token_ciphertext" FROM "report_requests" WHERE "token_id" IS NOT NULL;--> statement-breakpoint
UPDATE "bulk_runs" SET "token_id" = gen_random_uuid() WHERE "token_ciphertext" IS NOT NULL;--> statement-breakpoint
INSERT INTO "sealed_tokens" ("id", "key_id", "sealed") SELECT "token_id", 'legacy', "token_ciphertext" FROM "bulk_runs" WHERE "token_id" IS NOT NULL;--> statement-breakpoint
-- Accounts that signed in with SSO before subjects were recorded may link once more, on their next SSO sign-in.
UPDATE "users" SET "sso_link_allowed" = true WHERE "id" IN (SELECT "user_id" FROM "sessions" WHERE "method" = 'sso');

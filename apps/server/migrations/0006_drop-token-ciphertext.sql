ALTER TABLE "bulk_runs" DROP COLUMN "token_ciphertext";--> statement-breakpoint
ALTER TABLE "report_requests" DROP COLUMN "token_ciphertext";
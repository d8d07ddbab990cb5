-- Decision 0028: the change sets' tables take neutral names. Renamed in place (the rows stay where they are,
-- nothing is copied), constraints and indexes renamed too (no rebuild, no scan). The release before this one
-- still reads and writes the old names during a rolling deploy: each old name stays as a view of the new table
-- (simple views, so PostgreSQL writes through them: insert, update, delete, on conflict, base defaults).
-- Contract step, in a later release once no instance of the earlier one runs: drop the two views.
ALTER TABLE "bulk_run_items" RENAME TO "change_set_items";--> statement-breakpoint
ALTER TABLE "bulk_runs" RENAME TO "change_sets";--> statement-breakpoint
ALTER TABLE "change_set_items" RENAME COLUMN "template_index" TO "input_index";--> statement-breakpoint
ALTER TABLE "change_set_items" RENAME CONSTRAINT "bulk_run_items_pkey" TO "change_set_items_pkey";--> statement-breakpoint
ALTER TABLE "change_sets" RENAME CONSTRAINT "bulk_runs_pkey" TO "change_sets_pkey";--> statement-breakpoint
ALTER TABLE "change_set_items" RENAME CONSTRAINT "bulk_run_items_run_id_bulk_runs_id_fk" TO "change_set_items_run_id_change_sets_id_fk";--> statement-breakpoint
ALTER TABLE "change_sets" RENAME CONSTRAINT "bulk_runs_user_id_users_id_fk" TO "change_sets_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "change_sets" RENAME CONSTRAINT "bulk_runs_token_id_sealed_tokens_id_fk" TO "change_sets_token_id_sealed_tokens_id_fk";--> statement-breakpoint
ALTER TABLE "change_sets" RENAME CONSTRAINT "bulk_runs_target_token_id_sealed_tokens_id_fk" TO "change_sets_target_token_id_sealed_tokens_id_fk";--> statement-breakpoint
ALTER INDEX "bulk_run_items_position_idx" RENAME TO "change_set_items_position_idx";--> statement-breakpoint
ALTER INDEX "bulk_runs_user_idx" RENAME TO "change_sets_user_idx";--> statement-breakpoint
CREATE VIEW "bulk_runs" AS SELECT "id", "user_id", "kind", "organization_id", "organization_name", "status", "error", "token_id", "job_id", "created_at", "started_at", "finished_at", "lease_until", "lease_owner", "lease_generation", "input", "planned", "undo_of", "undone_by", "target_token_id", "target_organization_id" FROM "change_sets";--> statement-breakpoint
CREATE VIEW "bulk_run_items" AS SELECT "id", "run_id", "position", "action", "input_index" AS "template_index", "aid", "account_group_name", "subject", "payload", "side", "phase", "before", "details", "status", "result_id", "note", "error", "started_at", "finished_at" FROM "change_set_items";

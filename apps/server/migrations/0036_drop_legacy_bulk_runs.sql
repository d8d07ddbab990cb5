-- Decision 0028's contract step (decision 0022): no instance of the release that read and wrote the change
-- sets' old names runs any more, so the two views that kept those names go. Only the views: the rows are in
-- "change_sets" and "change_set_items", which nothing here touches.
DROP VIEW IF EXISTS "bulk_run_items";--> statement-breakpoint
DROP VIEW IF EXISTS "bulk_runs";

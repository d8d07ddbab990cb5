-- What the platform measured at each watch run (decision 0037), kept with the run as its score is: nullable, a run
-- before it, or without a health check, has none. Adding a nullable column rewrites no row.
ALTER TABLE "watch_runs" ADD COLUMN "measurements" jsonb;

ALTER TABLE "community_dashboard_pushes" ADD COLUMN "organization_id" text;--> statement-breakpoint
CREATE INDEX "report_requests_organization_idx" ON "report_requests" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "change_sets_organization_idx" ON "change_sets" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "community_dashboard_pushes_organization_idx" ON "community_dashboard_pushes" USING btree ("organization_id","created_at");
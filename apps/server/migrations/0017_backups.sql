CREATE TABLE "backup_chunks" (
	"backup_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "backup_chunks_backup_id_position_pk" PRIMARY KEY("backup_id","position")
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"organization_id" text NOT NULL,
	"organization_name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"token_id" uuid,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"lease_generation" integer DEFAULT 0 NOT NULL,
	"aid" text NOT NULL,
	"account_group_name" text NOT NULL,
	"origin" text DEFAULT 'live' NOT NULL,
	"counts" jsonb,
	"items" integer,
	"size" integer,
	"checksum" text
);
--> statement-breakpoint
ALTER TABLE "backup_chunks" ADD CONSTRAINT "backup_chunks_backup_id_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "public"."backups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_token_id_sealed_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."sealed_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backups_organization_idx" ON "backups" USING btree ("organization_id","aid","created_at");--> statement-breakpoint
CREATE INDEX "backups_user_idx" ON "backups" USING btree ("user_id","created_at");
CREATE TABLE "backup_items" (
	"backup_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"masked" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"config" text,
	"server" text,
	CONSTRAINT "backup_items_backup_id_kind_key_pk" PRIMARY KEY("backup_id","kind","key")
);
--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "indexed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_items" ADD CONSTRAINT "backup_items_backup_id_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "public"."backups"("id") ON DELETE cascade ON UPDATE no action;
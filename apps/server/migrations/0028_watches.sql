CREATE TABLE "watches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"organization_name" text NOT NULL,
	"account_groups" jsonb NOT NULL,
	"runs" text NOT NULL,
	"schedule" jsonb NOT NULL,
	"channel" jsonb NOT NULL,
	"speak_when" jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_reason" text,
	"token_id" uuid,
	"token_last4" text,
	"token_stored_at" timestamp with time zone,
	"token_stored_by" uuid,
	"consent_contact_name" text,
	"consent_contact_email" text,
	"token_expires_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_token_id_sealed_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."sealed_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_token_stored_by_users_id_fk" FOREIGN KEY ("token_stored_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watches_user_idx" ON "watches" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "watches_due_idx" ON "watches" USING btree ("status","next_run_at");
CREATE TABLE "pcap_captures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"summary" jsonb,
	"shared_with" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pcap_chunks" (
	"capture_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "pcap_chunks_capture_id_position_pk" PRIMARY KEY("capture_id","position")
);
--> statement-breakpoint
ALTER TABLE "pcap_captures" ADD CONSTRAINT "pcap_captures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pcap_chunks" ADD CONSTRAINT "pcap_chunks_capture_id_pcap_captures_id_fk" FOREIGN KEY ("capture_id") REFERENCES "public"."pcap_captures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pcap_captures_user_idx" ON "pcap_captures" USING btree ("user_id","created_at");
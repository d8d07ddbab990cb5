CREATE TABLE "webex_deliveries" (
	"key" text PRIMARY KEY NOT NULL,
	"to_email" text NOT NULL,
	"markdown_sha256" text NOT NULL,
	"status" text NOT NULL,
	"message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

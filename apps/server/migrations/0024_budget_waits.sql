CREATE TABLE "budget_waits" (
	"user_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"organization_name" text,
	"ends_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_waits_user_id_request_id_pk" PRIMARY KEY("user_id","request_id")
);

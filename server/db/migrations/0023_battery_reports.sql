CREATE TABLE "battery_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"uploader_id" text NOT NULL,
	"source" text NOT NULL,
	"design_capacity" double precision,
	"full_capacity" double precision,
	"unit" text NOT NULL,
	"health_pct" smallint NOT NULL,
	"cycles" integer,
	"report_date" timestamp with time zone NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "battery_report_source" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "battery_report_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "battery_reports" ADD CONSTRAINT "battery_reports_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "battery_reports" ADD CONSTRAINT "battery_reports_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "battery_reports_product_idx" ON "battery_reports" USING btree ("product_id","created_at");
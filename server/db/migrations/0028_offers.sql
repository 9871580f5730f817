CREATE TABLE "offer_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor" text,
	"amount_cents" integer,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"buyer_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"amount_cents" integer NOT NULL,
	"buyer_amount_cents" integer NOT NULL,
	"waiting_for" text DEFAULT 'seller' NOT NULL,
	"rounds" smallint DEFAULT 1 NOT NULL,
	"note" text,
	"decline_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"booking_id" uuid,
	"pay_by" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_status_check" CHECK ("offers"."status" in ('open', 'accepted', 'declined', 'withdrawn', 'expired', 'lapsed')),
	CONSTRAINT "offers_waiting_for_check" CHECK ("offers"."waiting_for" in ('buyer', 'seller')),
	CONSTRAINT "offers_amount_check" CHECK ("offers"."amount_cents" > 0 and "offers"."buyer_amount_cents" > 0),
	CONSTRAINT "offers_rounds_check" CHECK ("offers"."rounds" between 1 and 3),
	CONSTRAINT "offers_accepted_check" CHECK ("offers"."status" <> 'accepted' or ("offers"."booking_id" is not null and "offers"."pay_by" is not null))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "offers_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "offer_floor_cents" integer;--> statement-breakpoint
ALTER TABLE "offer_events" ADD CONSTRAINT "offer_events_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offer_events_offer_idx" ON "offer_events" USING btree ("offer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_open_pair_idx" ON "offers" USING btree ("product_id","buyer_id") WHERE "offers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "offers_product_buyer_idx" ON "offers" USING btree ("product_id","buyer_id");--> statement-breakpoint
CREATE INDEX "offers_buyer_idx" ON "offers" USING btree ("buyer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_seller_idx" ON "offers" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_booking_idx" ON "offers" USING btree ("booking_id") WHERE "offers"."booking_id" is not null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_offer_floor_check" CHECK ("products"."offer_floor_cents" is null or "products"."offer_floor_cents" > 0);
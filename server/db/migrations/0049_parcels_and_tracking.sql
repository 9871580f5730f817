CREATE TABLE "carrier_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parcel_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"parcel_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"carrier_event_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parcel_events_status_check" CHECK ("parcel_events"."status" in ('unknown', 'pre_transit', 'in_transit', 'out_for_delivery', 'delivered', 'available_for_pickup', 'return_to_sender', 'failure', 'cancelled', 'error'))
);
--> statement-breakpoint
CREATE TABLE "parcels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"return_id" uuid,
	"mode" text NOT NULL,
	"carrier_shipment_id" text NOT NULL,
	"tracker_id" text NOT NULL,
	"tracking_code" text NOT NULL,
	"carrier" text NOT NULL,
	"service" text NOT NULL,
	"label_url" text NOT NULL,
	"tracking_url" text,
	"cost_cents" integer NOT NULL,
	"status" text DEFAULT 'pre_transit' NOT NULL,
	"status_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parcels_purpose_check" CHECK ("parcels"."purpose" in ('sale', 'return')),
	CONSTRAINT "parcels_status_check" CHECK ("parcels"."status" in ('unknown', 'pre_transit', 'in_transit', 'out_for_delivery', 'delivered', 'available_for_pickup', 'return_to_sender', 'failure', 'cancelled', 'error')),
	CONSTRAINT "parcels_mode_check" CHECK ("parcels"."mode" in ('easypost', 'test')),
	CONSTRAINT "parcels_return_check" CHECK (("parcels"."purpose" = 'return') = ("parcels"."return_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "test_carrier_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "parcel_events" ADD CONSTRAINT "parcel_events_parcel_id_parcels_id_fk" FOREIGN KEY ("parcel_id") REFERENCES "public"."parcels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parcels" ADD CONSTRAINT "parcels_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "parcel_events_step_idx" ON "parcel_events" USING btree ("parcel_id","status","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "parcels_tracker_idx" ON "parcels" USING btree ("tracker_id");--> statement-breakpoint
CREATE UNIQUE INDEX "parcels_sale_idx" ON "parcels" USING btree ("booking_id") WHERE "parcels"."purpose" = 'sale';--> statement-breakpoint
CREATE UNIQUE INDEX "parcels_return_idx" ON "parcels" USING btree ("return_id") WHERE "parcels"."purpose" = 'return';
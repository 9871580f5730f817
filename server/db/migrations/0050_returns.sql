CREATE TABLE "return_photos" (
	"return_id" uuid NOT NULL,
	"upload_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "return_photos_return_id_upload_id_pk" PRIMARY KEY("return_id","upload_id")
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"opened_by" text NOT NULL,
	"method" text NOT NULL,
	"reason" text NOT NULL,
	"failed_check" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"dispute_id" uuid,
	"decline_reason" text,
	"decision_reason" text,
	"decided_by" text,
	"back_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"delivered_back_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "returns_status_check" CHECK ("returns"."status" in ('requested', 'declined', 'accepted', 'refused', 'label_bought', 'delivered_back', 'refunded', 'disputed')),
	CONSTRAINT "returns_method_check" CHECK ("returns"."method" in ('ship', 'meet'))
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_stage_check";--> statement-breakpoint
ALTER TABLE "disputes" DROP CONSTRAINT "disputes_status_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "return_photos" ADD CONSTRAINT "return_photos_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_photos" ADD CONSTRAINT "return_photos_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "return_photos_upload_idx" ON "return_photos" USING btree ("upload_id");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_booking_idx" ON "returns" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "returns_awaiting_idx" ON "returns" USING btree ("created_at") WHERE "returns"."status" in ('requested', 'declined');--> statement-breakpoint
CREATE INDEX "returns_delivered_back_idx" ON "returns" USING btree ("delivered_back_at") WHERE "returns"."status" = 'delivered_back';--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_stage_check" CHECK ("bookings"."stage" in ('booked', 'cancelled', 'paid', 'shipped', 'handed_over', 'returning', 'completed', 'disputed', 'refunded'));--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_status_check" CHECK ("disputes"."status" in ('open', 'refunded', 'released', 'returning'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('charge', 'complete', 'refund', 'payout', 'payout_paid', 'payout_failed', 'reversal', 'label', 'return_label'));
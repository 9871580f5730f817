ALTER TABLE "bookings" DROP CONSTRAINT "bookings_stage_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_seller_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "delivery_method" text DEFAULT 'meet' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "shipping_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "shipping_rate" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "ship_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "delivery" text DEFAULT 'meet' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "parcel_size" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "parcel_weight_oz" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "ship_from" jsonb;--> statement-breakpoint
CREATE INDEX "bookings_ship_by_idx" ON "bookings" USING btree ("ship_by") WHERE "bookings"."stage" = 'paid' and "bookings"."ship_by" is not null;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_delivery_method_check" CHECK ("bookings"."delivery_method" in ('meet', 'ship') and ("bookings"."delivery_method" = 'ship' or "bookings"."shipping_cents" = 0));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_stage_check" CHECK ("bookings"."stage" in ('booked', 'cancelled', 'paid', 'shipped', 'handed_over', 'completed', 'disputed', 'refunded'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('buyers', 'held', 'held_fees', 'available', 'on_its_way', 'paid_out', 'fees', 'shipping', 'carriers'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_seller_check" CHECK (("ledger_accounts"."seller_id" is null) = ("ledger_accounts"."kind" in ('buyers', 'held_fees', 'fees', 'shipping', 'carriers')));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('charge', 'complete', 'refund', 'payout', 'payout_paid', 'payout_failed', 'reversal', 'label'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_delivery_check" CHECK ("products"."delivery" in ('meet', 'ship', 'both'));
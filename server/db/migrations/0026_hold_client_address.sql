ALTER TABLE "booking_holds" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "booking_holds_address_idx" ON "booking_holds" USING btree ("client_address","hold_until");
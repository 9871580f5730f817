ALTER TABLE "bookings" DROP CONSTRAINT "bookings_stage_check";--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_stage_paid_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_stage_check" CHECK ("bookings"."stage" in ('booked', 'cancelled', 'paid', 'handed_over', 'completed', 'disputed', 'refunded'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_stage_paid_check" CHECK (("bookings"."stage" in ('booked', 'cancelled') or "bookings"."is_paid") and ("bookings"."stage" <> 'cancelled' or not "bookings"."is_paid"));
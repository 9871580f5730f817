CREATE TABLE "payout_account_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" text NOT NULL,
	"old_account_holder" text,
	"old_routing_number" text,
	"old_account_last4" text,
	"old_fails_at_payout" boolean,
	"old_status" text,
	"old_payable_from" timestamp with time zone,
	"new_account_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "step_ups" (
	"session_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"method" text NOT NULL,
	"proved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "step_ups_method_check" CHECK ("step_ups"."method" in ('password', 'code'))
);
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "payable_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "account_last4" text;--> statement-breakpoint
ALTER TABLE "payout_account_changes" ADD CONSTRAINT "payout_account_changes_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_ups" ADD CONSTRAINT "step_ups_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_ups" ADD CONSTRAINT "step_ups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_account_changes_seller_idx" ON "payout_account_changes" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "step_ups_user_idx" ON "step_ups" USING btree ("user_id");
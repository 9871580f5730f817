CREATE TABLE "used_totp_steps" (
	"user_id" text NOT NULL,
	"step" bigint NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "used_totp_steps_user_id_step_pk" PRIMARY KEY("user_id","step")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor" text;--> statement-breakpoint
ALTER TABLE "used_totp_steps" ADD CONSTRAINT "used_totp_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "question_blocks" (
	"seller_id" text NOT NULL,
	"asker_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_blocks_seller_id_asker_id_pk" PRIMARY KEY("seller_id","asker_id")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"asker_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"body" text NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"is_public" boolean DEFAULT false NOT NULL,
	"seller_email_pending" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questions_body_length_check" CHECK (char_length("questions"."body") between 1 and 1000),
	CONSTRAINT "questions_answer_length_check" CHECK ("questions"."answer" is null or char_length("questions"."answer") between 1 and 2000),
	CONSTRAINT "questions_public_answered_check" CHECK (not "questions"."is_public" or "questions"."answer" is not null)
);
--> statement-breakpoint
ALTER TABLE "question_blocks" ADD CONSTRAINT "question_blocks_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_blocks" ADD CONSTRAINT "question_blocks_asker_id_users_id_fk" FOREIGN KEY ("asker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_asker_id_users_id_fk" FOREIGN KEY ("asker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_blocks_asker_idx" ON "question_blocks" USING btree ("asker_id");--> statement-breakpoint
CREATE INDEX "questions_product_public_idx" ON "questions" USING btree ("product_id","answered_at" DESC NULLS LAST) WHERE "questions"."is_public";--> statement-breakpoint
CREATE INDEX "questions_seller_idx" ON "questions" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "questions_asker_idx" ON "questions" USING btree ("asker_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "questions_seller_email_pending_idx" ON "questions" USING btree ("seller_id") WHERE "questions"."seller_email_pending";--> statement-breakpoint
-- Written by hand: a question shown on its listing (public Q&A) is part of the listing's public page, so a change to
-- one moves the public data version like a change to the listing does (migration 0032); a question nobody but its
-- asker and the seller sees changes nothing public.
CREATE CONSTRAINT TRIGGER public_data_questions AFTER DELETE ON questions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.is_public) EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_questions_update AFTER UPDATE ON questions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.is_public OR NEW.is_public)
    AND (OLD.body, OLD.answer, OLD.is_public) IS DISTINCT FROM (NEW.body, NEW.answer, NEW.is_public))
  EXECUTE FUNCTION public_data_bump();

ALTER TABLE "products" ADD COLUMN "on_sale_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Listings already there came on sale when posted, or when an admin approved them after review.
UPDATE "products" SET "on_sale_since" = CASE
  WHEN "review_state" = 'approved' AND "reviewed_at" > "posted_on" THEN "reviewed_at" ELSE "posted_on" END;

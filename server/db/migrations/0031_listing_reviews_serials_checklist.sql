-- Edited by hand: the search indexes keep the INCLUDE columns of migrations 0011 and 0016 (drizzle-kit cannot express
-- them), now over approved listings only, so a search still reads the index alone.
CREATE TABLE "stolen_serials" (
	"serial_hash" text PRIMARY KEY NOT NULL,
	"serial_last4" text NOT NULL,
	"reported_by" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_brand_available_idx";--> statement-breakpoint
DROP INDEX "products_advertised_idx";--> statement-breakpoint
DROP INDEX "products_available_idx";--> statement-breakpoint
DROP INDEX "products_search_newest_idx";--> statement-breakpoint
DROP INDEX "products_search_price_idx";--> statement-breakpoint
DROP INDEX "products_search_brand_price_idx";--> statement-breakpoint
DROP INDEX "products_search_battery_idx";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "handover_checklist" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "handover_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "serial_hash" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "serial_last4" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "review_state" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "review_flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "review_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "stolen_serials" ADD CONSTRAINT "stolen_serials_reported_by_users_id_fk" FOREIGN KEY ("reported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_serial_idx" ON "products" USING btree ("serial_hash") WHERE "products"."serial_hash" is not null;--> statement-breakpoint
CREATE INDEX "products_review_queue_idx" ON "products" USING btree ("review_submitted_at") WHERE "products"."review_state" = 'pending';--> statement-breakpoint
CREATE INDEX "products_brand_available_idx" ON "products" USING btree ("brand_id","posted_on" DESC NULLS LAST) INCLUDE ("id", "seller_id") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "products_advertised_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST) WHERE "products"."is_advertised" = true and "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "products_available_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST) WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "products_search_newest_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "resale_price_cents", "battery_health_pct") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "products_search_price_idx" ON "products" USING btree ("resale_price_cents","id") INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "posted_on", "battery_health_pct") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "products_search_brand_price_idx" ON "products" USING btree ("brand_id","resale_price_cents","id") INCLUDE ("seller_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "posted_on", "battery_health_pct") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved';--> statement-breakpoint
CREATE INDEX "products_search_battery_idx" ON "products" USING btree ("battery_health_pct","posted_on" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "resale_price_cents") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."review_state" = 'approved' and "products"."battery_health_pct" is not null;
--> statement-breakpoint
-- Written by hand: a listing waiting for review (or rejected) is not on sale, so the listing counts (0006, 0011, 0015)
-- leave it out like a sold or expired one, and the listings' facts copy moves on when its review state changes.
CREATE OR REPLACE FUNCTION listing_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      coalesce(r.battery_health_pct >= 80, false), count(*)::int
    FROM new_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL AND r.review_state = 'approved'
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80)
      DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      coalesce(r.battery_health_pct >= 80, false), -count(*)::int
    FROM old_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL AND r.review_state = 'approved'
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80)
      DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
    SELECT brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, sum(d)::int
    FROM (
      SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int AS screen_class,
        coalesce(r.processor_family, '') AS processor_family,
        coalesce(r.battery_health_pct >= 80, false) AS battery_80, -1 AS d
      FROM old_rows r
      WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL AND r.review_state = 'approved'
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
      UNION ALL
      SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int,
        coalesce(r.processor_family, ''), coalesce(r.battery_health_pct >= 80, false), 1
      FROM new_rows r
      WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL AND r.review_state = 'approved'
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    ) changes
    GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80)
      DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_counts_seller() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
  SELECT p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int, coalesce(p.processor_family, ''),
    coalesce(p.battery_health_pct >= 80, false), (count(*) * CASE WHEN NEW.disabled_at IS NULL THEN 1 ELSE -1 END)::int
  FROM products p
  WHERE p.seller_id = NEW.id AND p.is_sold = false AND p.removed_at IS NULL AND p.expired_at IS NULL AND p.review_state = 'approved'
  GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80)
    DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM listing_counts;
  INSERT INTO listing_counts (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
  SELECT p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int, coalesce(p.processor_family, ''),
    coalesce(p.battery_health_pct >= 80, false), count(*)::int
  FROM products p
  WHERE p.is_sold = false AND p.removed_at IS NULL AND p.expired_at IS NULL AND p.review_state = 'approved'
    AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.seller_id AND u.disabled_at IS NOT NULL)
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
$$;
--> statement-breakpoint
SELECT listing_counts_rebuild();

--> statement-breakpoint
DROP TRIGGER listing_facts_bump ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER listing_facts_bump AFTER INSERT OR DELETE OR UPDATE OF
  brand_id, condition, ram_gb, storage_gb, screen_inches, processor, battery_health_pct, resale_price_cents,
  posted_on, is_sold, removed_at, expired_at, seller_id, name, description, review_state
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_counts_bump();
--> statement-breakpoint
-- The change feed (0027) notes a listing whose review state changed too: approving one puts it in every instance's
-- copy of the listings, rejecting one takes it out.
CREATE OR REPLACE FUNCTION listing_changes_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_changes (tx, product_id, posted_on) SELECT txid_current(), n.id, n.posted_on FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_changes (tx, product_id, posted_on) SELECT txid_current(), o.id, o.posted_on FROM old_rows o;
  ELSE
    INSERT INTO listing_changes (tx, product_id, posted_on)
    SELECT txid_current(), n.id, o.posted_on FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.brand_id, n.condition, n.ram_gb, n.storage_gb, n.screen_inches, n.processor_family,
        n.battery_health_pct, n.resale_price_cents, n.posted_on, n.search_title, n.search_vector, n.is_sold,
        n.removed_at, n.expired_at, n.seller_id, n.review_state)
      IS DISTINCT FROM (o.brand_id, o.condition, o.ram_gb, o.storage_gb, o.screen_inches, o.processor_family,
        o.battery_health_pct, o.resale_price_cents, o.posted_on, o.search_title, o.search_vector, o.is_sold,
        o.removed_at, o.expired_at, o.seller_id, o.review_state);
  END IF;
  RETURN NULL;
END $$;

CREATE TABLE "listing_counts" (
	"brand_id" uuid NOT NULL,
	"condition" text NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"screen_class" integer NOT NULL,
	"processor_family" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "listing_counts_pkey" PRIMARY KEY("brand_id","condition","ram_gb","storage_gb","screen_class","processor_family")
);
--> statement-breakpoint
-- Written by hand (drizzle-kit cannot express triggers or INCLUDE). Each listing statement adds or takes away its
-- available rows' counts, summed per combination first (one upsert per combination, in key order so concurrent
-- writers lock rows in the same order); a statement that changes no count (a price edit) touches nothing.
CREATE FUNCTION listing_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      count(*)::int
    FROM new_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
      DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      -count(*)::int
    FROM old_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
      DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
    SELECT brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, sum(d)::int
    FROM (
      SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int AS screen_class,
        coalesce(r.processor_family, '') AS processor_family, -1 AS d
      FROM old_rows r
      WHERE r.is_sold = false AND r.removed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
      UNION ALL
      SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int,
        coalesce(r.processor_family, ''), 1
      FROM new_rows r
      WHERE r.is_sold = false AND r.removed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    ) changes
    GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
      DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listing_counts_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
CREATE TRIGGER listing_counts_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
CREATE TRIGGER listing_counts_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
-- A seller disabled (or enabled again) takes their available listings out of the counts (or puts them back).
CREATE FUNCTION listing_counts_seller() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
  SELECT p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int, coalesce(p.processor_family, ''),
    (count(*) * CASE WHEN NEW.disabled_at IS NULL THEN 1 ELSE -1 END)::int
  FROM products p
  WHERE p.seller_id = NEW.id AND p.is_sold = false AND p.removed_at IS NULL
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
    DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listing_counts_seller AFTER UPDATE OF disabled_at ON users
  FOR EACH ROW WHEN ((OLD.disabled_at IS NULL) <> (NEW.disabled_at IS NULL)) EXECUTE FUNCTION listing_counts_seller();
--> statement-breakpoint
-- Recounts from the listings (after a bulk fix by hand, or to check the triggers' work).
CREATE FUNCTION listing_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM listing_counts;
  INSERT INTO listing_counts (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
  SELECT p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int, coalesce(p.processor_family, ''),
    count(*)::int
  FROM products p
  WHERE p.is_sold = false AND p.removed_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.seller_id AND u.disabled_at IS NOT NULL)
  GROUP BY 1, 2, 3, 4, 5, 6;
$$;
--> statement-breakpoint
SELECT listing_counts_rebuild();
--> statement-breakpoint
-- The keyset indexes carry the columns every filter and the disabled-seller check read, so a page's ids, a capped
-- count and the date facet are read from the index alone (index-only scans) instead of one heap visit per row.
DROP INDEX "products_search_newest_idx";
--> statement-breakpoint
CREATE INDEX "products_search_newest_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST, "id" DESC NULLS LAST)
  INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "resale_price_cents")
  WHERE "products"."is_sold" = false and "products"."removed_at" is null;
--> statement-breakpoint
DROP INDEX "products_search_price_idx";
--> statement-breakpoint
CREATE INDEX "products_search_price_idx" ON "products" USING btree ("resale_price_cents", "id")
  INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "posted_on")
  WHERE "products"."is_sold" = false and "products"."removed_at" is null;
--> statement-breakpoint
DROP INDEX "products_search_brand_price_idx";
--> statement-breakpoint
CREATE INDEX "products_search_brand_price_idx" ON "products" USING btree ("brand_id", "resale_price_cents", "id")
  INCLUDE ("seller_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "posted_on")
  WHERE "products"."is_sold" = false and "products"."removed_at" is null;
--> statement-breakpoint
DROP INDEX "products_brand_available_idx";
--> statement-breakpoint
CREATE INDEX "products_brand_available_idx" ON "products" USING btree ("brand_id", "posted_on" DESC)
  INCLUDE ("id", "seller_id")
  WHERE "products"."is_sold" = false and "products"."removed_at" is null;

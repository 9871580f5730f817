CREATE TABLE "price_guides" (
	"level" smallint NOT NULL,
	"brand_id" uuid NOT NULL,
	"processor_key" text NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"sales" integer NOT NULL,
	"p25_cents" integer NOT NULL,
	"median_cents" integer NOT NULL,
	"p75_cents" integer NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_guides_brand_id_ram_gb_storage_gb_processor_key_level_pk" PRIMARY KEY("brand_id","ram_gb","storage_gb","processor_key","level"),
	CONSTRAINT "price_guides_level_check" CHECK ("price_guides"."level" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "product_views" (
	"product_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_views_product_id_day_pk" PRIMARY KEY("product_id","day")
);
--> statement-breakpoint
DROP INDEX "products_brand_available_idx";--> statement-breakpoint
DROP INDEX "products_advertised_idx";--> statement-breakpoint
DROP INDEX "products_available_idx";--> statement-breakpoint
DROP INDEX "products_search_newest_idx";--> statement-breakpoint
DROP INDEX "products_search_price_idx";--> statement-breakpoint
DROP INDEX "products_search_brand_price_idx";--> statement-breakpoint
DROP INDEX "products_search_battery_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "renewed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "expiry_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "price_guides" ADD CONSTRAINT "price_guides_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_views" ADD CONSTRAINT "product_views_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_renewed_idx" ON "products" USING btree ("renewed_at") WHERE "products"."expired_at" is null and "products"."is_sold" = false and "products"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "products_sold_specs_idx" ON "products" USING btree ("brand_id","ram_gb","storage_gb") WHERE "products"."is_sold" = true;--> statement-breakpoint
CREATE INDEX "products_brand_available_idx" ON "products" USING btree ("brand_id","posted_on" DESC NULLS LAST) INCLUDE ("id", "seller_id") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null;--> statement-breakpoint
CREATE INDEX "products_advertised_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST) WHERE "products"."is_advertised" = true and "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null;--> statement-breakpoint
CREATE INDEX "products_available_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST) WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_newest_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "resale_price_cents") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_price_idx" ON "products" USING btree ("resale_price_cents","id") INCLUDE ("seller_id", "brand_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "posted_on") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_brand_price_idx" ON "products" USING btree ("brand_id","resale_price_cents","id") INCLUDE ("seller_id", "condition", "ram_gb", "storage_gb", "screen_inches", "processor_family", "posted_on") WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_battery_idx" ON "products" USING btree ("battery_health_pct","posted_on" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "products"."is_sold" = false and "products"."removed_at" is null and "products"."expired_at" is null and "products"."battery_health_pct" is not null;
--> statement-breakpoint
-- The price guide's processor keys. The model is the chip's own name as buyers write it in many ways
-- ("Intel Core i7-1165G7", "i7 1165G7" -> i71165g7; "AMD Ryzen 7 PRO 6850U" -> ryzen7pro6850u;
-- "Apple M1 Pro (10-core CPU)" -> m1pro), else the text before any comma or bracket, letters and digits only.
CREATE FUNCTION processor_model_key(processor text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(coalesce(
    (regexp_match(lower(processor), '\mi[3579][- ]?\d{4,5}[a-z0-9]*'))[1],
    (regexp_match(lower(processor), 'ryzen\s*[3579](?:\s*pro)?\s*\d{4}[a-z0-9]*'))[1],
    (regexp_match(lower(processor), '\mm[1-9](?:\s*(?:pro|max|ultra)\M)?'))[1],
    split_part(split_part(lower(processor), ',', 1), '(', 1)
  ), '[^a-z0-9]+', '', 'g')
$$;
--> statement-breakpoint
-- The family, as products.processor_family derives it (the same expression).
CREATE FUNCTION processor_family_key(processor text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT case
    when lower(processor) ~ '\mapple\M|\mm[1-9]( pro| max| ultra)?\M' then 'apple-m'
    when lower(processor) ~ 'ryzen\s*[3579]\M' then 'amd-ryzen-' || substring(lower(processor) from 'ryzen\s*([3579])\M')
    when lower(processor) ~ '\mi[3579]\M' then 'intel-core-i' || substring(lower(processor) from '\mi([3579])\M')
  end
$$;
--> statement-breakpoint
-- Written by hand: the listing counts (0006) leave expired listings out, like sold ones; recounted once.
CREATE OR REPLACE FUNCTION listing_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      count(*)::int
    FROM new_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
      DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      -count(*)::int
    FROM old_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
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
      WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
      UNION ALL
      SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int,
        coalesce(r.processor_family, ''), 1
      FROM new_rows r
      WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    ) changes
    GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
      DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_counts_seller() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
  SELECT p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int, coalesce(p.processor_family, ''),
    (count(*) * CASE WHEN NEW.disabled_at IS NULL THEN 1 ELSE -1 END)::int
  FROM products p
  WHERE p.seller_id = NEW.id AND p.is_sold = false AND p.removed_at IS NULL AND p.expired_at IS NULL
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family)
    DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM listing_counts;
  INSERT INTO listing_counts (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, n)
  SELECT p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int, coalesce(p.processor_family, ''),
    count(*)::int
  FROM products p
  WHERE p.is_sold = false AND p.removed_at IS NULL AND p.expired_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.seller_id AND u.disabled_at IS NOT NULL)
  GROUP BY 1, 2, 3, 4, 5, 6;
$$;
--> statement-breakpoint
SELECT listing_counts_rebuild();

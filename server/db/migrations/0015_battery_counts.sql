ALTER TABLE "listing_counts" ADD COLUMN "battery_80" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_counts" DROP CONSTRAINT "listing_counts_pkey";
--> statement-breakpoint
ALTER TABLE "listing_counts" ADD CONSTRAINT "listing_counts_pkey" PRIMARY KEY("brand_id","condition","ram_gb","storage_gb","screen_class","processor_family","battery_80");--> statement-breakpoint
-- Written by hand: the listing counts (0006, 0011) also keep whether the battery is at least 80% (the "Battery 80%
-- or more" facet, BATTERY_FACET_PCT), so that facet and its filter are sums over this table too; recounted once.
CREATE OR REPLACE FUNCTION listing_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      coalesce(r.battery_health_pct >= 80, false), count(*)::int
    FROM new_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
    GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80)
      DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_counts AS c (brand_id, condition, ram_gb, storage_gb, screen_class, processor_family, battery_80, n)
    SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int, coalesce(r.processor_family, ''),
      coalesce(r.battery_health_pct >= 80, false), -count(*)::int
    FROM old_rows r
    WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
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
      WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.seller_id AND u.disabled_at IS NOT NULL)
      UNION ALL
      SELECT r.brand_id, r.condition, r.ram_gb, r.storage_gb, floor(r.screen_inches)::int,
        coalesce(r.processor_family, ''), coalesce(r.battery_health_pct >= 80, false), 1
      FROM new_rows r
      WHERE r.is_sold = false AND r.removed_at IS NULL AND r.expired_at IS NULL
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
  WHERE p.seller_id = NEW.id AND p.is_sold = false AND p.removed_at IS NULL AND p.expired_at IS NULL
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
  WHERE p.is_sold = false AND p.removed_at IS NULL AND p.expired_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.seller_id AND u.disabled_at IS NOT NULL)
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
$$;
--> statement-breakpoint
SELECT listing_counts_rebuild();

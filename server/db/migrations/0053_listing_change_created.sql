ALTER TABLE "listing_changes" ADD COLUMN "created" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Written by hand: a listing's creation is noted as such, so that search can tell a bulk import's new listings (no copy
-- read before it holds them) from listings a bulk change altered (docs/decisions/0111-*). As in 0031 otherwise.
CREATE OR REPLACE FUNCTION listing_changes_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_changes (tx, product_id, posted_on, created)
    SELECT txid_current(), n.id, n.posted_on, true FROM new_rows n;
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

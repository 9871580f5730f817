-- Written by hand: the per-instance copy of the listings' facts now also holds their searchable words, so a text
-- search is answered from memory like a search without text (docs/decisions/0031-listing-facts-in-memory.md). The
-- version row must then also move on when a listing's name or description changes (its brand and processor already
-- moved it on).
DROP TRIGGER listing_facts_bump ON products;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER listing_facts_bump AFTER INSERT OR DELETE OR UPDATE OF
  brand_id, condition, ram_gb, storage_gb, screen_inches, processor, battery_health_pct, resale_price_cents,
  posted_on, is_sold, removed_at, expired_at, seller_id, name, description
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_counts_bump();

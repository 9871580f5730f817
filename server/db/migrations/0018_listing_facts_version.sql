-- Written by hand: the version row also moves on when a listing changes in a way search filters on without the
-- counts changing (its price, posting date or battery health; a new listing or a sale changes the counts already),
-- so the per-instance copy of the listings' filter columns (docs/decisions/0031-listing-facts-in-memory.md) can tell
-- whether it is current from that one row. Once per transaction, at commit, like the counts' own trigger.
CREATE CONSTRAINT TRIGGER listing_facts_bump AFTER INSERT OR DELETE OR UPDATE OF
  brand_id, condition, ram_gb, storage_gb, screen_inches, processor, battery_health_pct, resale_price_cents,
  posted_on, is_sold, removed_at, expired_at, seller_id
  ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_counts_bump();

CREATE TABLE "listing_change_commits" (
	"version" bigint PRIMARY KEY NOT NULL,
	"tx" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_changes" (
	"tx" bigint NOT NULL,
	"product_id" uuid NOT NULL,
	"posted_on" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "listing_changes_tx_idx" ON "listing_changes" USING btree ("tx");--> statement-breakpoint
-- Written by hand: the change feed search applies to each instance's copy of the listings
-- (docs/decisions/0037-listing-change-feed.md). Statement triggers with transition tables note every listing whose
-- searchable columns changed, in the changing transaction; the version's deferred trigger, at commit, notes which
-- version that transaction committed as. A change also notes when the listing was posted before it (where the
-- copy, in posting order, holds it). The version row's lock orders the versions as the commits, so a reader
-- that sees version V sees every change up to V.
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
        n.removed_at, n.expired_at, n.seller_id)
      IS DISTINCT FROM (o.brand_id, o.condition, o.ram_gb, o.storage_gb, o.screen_inches, o.processor_family,
        o.battery_health_pct, o.resale_price_cents, o.posted_on, o.search_title, o.search_vector, o.is_sold,
        o.removed_at, o.expired_at, o.seller_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listing_changes_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_changes_note();
--> statement-breakpoint
CREATE TRIGGER listing_changes_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_changes_note();
--> statement-breakpoint
CREATE TRIGGER listing_changes_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_changes_note();
--> statement-breakpoint
-- A seller disabled (or enabled again): every listing of theirs changes whether it is on sale.
CREATE OR REPLACE FUNCTION listing_changes_seller() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO listing_changes (tx, product_id, posted_on)
  SELECT txid_current(), p.id, p.posted_on FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN products p ON p.seller_id = n.id
  WHERE (n.disabled_at IS NULL) <> (o.disabled_at IS NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listing_changes_seller AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_changes_seller();
--> statement-breakpoint
-- A noted change moves the version on at commit, like every other change search reads.
CREATE CONSTRAINT TRIGGER listing_changes_bump AFTER INSERT ON listing_changes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_counts_bump();
--> statement-breakpoint
-- The version's trigger also notes the version each transaction committed as, and now and then forgets commits
-- older than a day (an instance further behind than that reads its copy again whole).
CREATE OR REPLACE FUNCTION listing_counts_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  IF current_setting('listing_counts.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('listing_counts.bumped_in', txid_current()::text, true);
    UPDATE listing_counts_version SET version = version + 1 RETURNING version INTO v;
    INSERT INTO listing_change_commits (version, tx) VALUES (v, txid_current());
    IF v % 1000 = 0 THEN
      DELETE FROM listing_change_commits WHERE created_at < now() - interval '1 day';
      DELETE FROM listing_changes WHERE tx < (SELECT min(tx) FROM listing_change_commits);
    END IF;
  END IF;
  RETURN NULL;
END $$;

ALTER TABLE "listing_counts_version" ADD COLUMN "brands_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Written by hand: a transaction that changes the brands adds one to brands_version as it commits (a deferred
-- trigger, once per transaction, like the counts' version). Each instance keeps the brand names (the brand facet's
-- labels) with the brands_version a search's page statement read, so a listing's change, which moves the listings'
-- version and not this one, does not make the next search read the brand names again (search.queries.ts,
-- brandNamesAt).
CREATE FUNCTION brands_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('brands_version.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('brands_version.bumped_in', txid_current()::text, true);
    UPDATE listing_counts_version SET brands_version = brands_version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER brands_version_bump AFTER INSERT OR UPDATE OR DELETE ON brands
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION brands_version_bump();
--> statement-breakpoint
UPDATE listing_counts_version SET brands_version = 1;

ALTER TABLE "listing_counts_version" ADD COLUMN "terms_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Written by hand: every transaction that adds a word to the vocabulary, or marks one as in some listing's brand or
-- name, adds one to terms_version as it commits (a deferred trigger, once per transaction, like the counts' version).
-- An instance remembers the corrections of the words it was asked for with the version they were read at, and a
-- search's page statement reads this row: a correction read at another version is read again
-- (docs/decisions/0015-search-engine.md).
CREATE FUNCTION search_terms_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('search_terms.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('search_terms.bumped_in', txid_current()::text, true);
    UPDATE listing_counts_version SET terms_version = terms_version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER search_terms_bump AFTER INSERT OR UPDATE OR DELETE ON search_terms
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_terms_bump();
--> statement-breakpoint
UPDATE listing_counts_version SET terms_version = 1;

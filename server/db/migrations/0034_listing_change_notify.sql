-- Written by hand: every commit that moves the listings' version on also says so on the channel `listing_changes`
-- (its payload the new version), so each instance applies the change feed as soon as it commits instead of at its
-- next poll (docs/decisions/0044-search-feed-notified.md). A notification is delivered only when the transaction
-- commits; the poll stays as the fallback.
CREATE OR REPLACE FUNCTION listing_counts_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  IF current_setting('listing_counts.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('listing_counts.bumped_in', txid_current()::text, true);
    UPDATE listing_counts_version SET version = version + 1 RETURNING version INTO v;
    INSERT INTO listing_change_commits (version, tx) VALUES (v, txid_current());
    PERFORM pg_notify('listing_changes', v::text);
    IF v % 1000 = 0 THEN
      DELETE FROM listing_change_commits WHERE created_at < now() - interval '1 day';
      DELETE FROM listing_changes WHERE tx < (SELECT min(tx) FROM listing_change_commits);
    END IF;
  END IF;
  RETURN NULL;
END $$;

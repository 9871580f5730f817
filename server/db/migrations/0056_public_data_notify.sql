-- Written by hand: the public version's bump (migration 0032) also notifies the channel `public_data` with the new
-- version as the transaction commits, so each instance drops its public cache at once and reads the version only
-- once a second to catch what a lost connection missed (server/lib/public-cache.ts).
CREATE OR REPLACE FUNCTION public_data_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  IF current_setting('public_data.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('public_data.bumped_in', txid_current()::text, true);
    UPDATE public_data_version SET version = version + 1 RETURNING version INTO v;
    PERFORM pg_notify('public_data', v::text);
  END IF;
  RETURN NULL;
END $$;

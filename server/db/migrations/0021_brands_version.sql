-- Written by hand: a brand's name is part of what search answers (the brand facet's labels), so a change to the
-- brands moves the listings' version on too, once per transaction at commit (the counts' own trigger function).
-- Each instance then keeps the brand names with the version it read them at (search.queries.ts, brandNamesAt).
CREATE CONSTRAINT TRIGGER brands_bump AFTER INSERT OR UPDATE OR DELETE ON brands
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_counts_bump();

CREATE TABLE "listing_counts_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_terms" ADD COLUMN "in_name" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "users_disabled_idx" ON "users" USING btree ("id") WHERE "users"."disabled_at" is not null;--> statement-breakpoint
-- Written by hand: every transaction that changes listing_counts adds one to the version as it commits (a deferred
-- trigger, once per transaction), so the row lock is held only while the transaction commits and a reader sees the
-- new counts and the new version together, or neither. Search keeps a copy of the counts per instance and reads this
-- one row to know whether the copy is current (docs/decisions/0029-facet-counts-in-memory.md).
INSERT INTO "listing_counts_version" ("id", "version") VALUES (true, 1);--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_counts_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('listing_counts.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('listing_counts.bumped_in', txid_current()::text, true);
    UPDATE listing_counts_version SET version = version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER listing_counts_bump AFTER INSERT OR UPDATE OR DELETE ON listing_counts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_counts_bump();
--> statement-breakpoint
-- Written by hand: the vocabulary also knows which words some listing has in its brand or name (weight A), so best
-- match knows when its top tier (every word in the brand or name) cannot exist and starts from the next one.
CREATE OR REPLACE FUNCTION search_terms_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms AS s (term, in_name)
  SELECT w, bool_or(in_name) FROM (
    SELECT w, false AS in_name FROM new_rows, regexp_split_to_table(new_rows.search_title, '[^[:alnum:]]+') AS w
    UNION ALL
    SELECT w, true FROM new_rows LEFT JOIN brands b ON b.id = new_rows.brand_id,
      regexp_split_to_table(lower(coalesce(b.name, '') || ' ' || new_rows.name), '[^[:alnum:]]+') AS w
  ) words
  WHERE length(w) BETWEEN 1 AND 40
  GROUP BY w
  ON CONFLICT (term) DO UPDATE SET in_name = true WHERE excluded.in_name AND NOT s.in_name;
  RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE search_terms s SET in_name = true
FROM (
  SELECT DISTINCT w FROM products p LEFT JOIN brands b ON b.id = p.brand_id,
    regexp_split_to_table(lower(coalesce(b.name, '') || ' ' || p.name), '[^[:alnum:]]+') AS w
) names
WHERE s.term = names.w;

ALTER TABLE "search_terms" ADD COLUMN "joined" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Written by hand: words typed apart or together find the same laptops ("mac book" and "macbook", "think pad" and
-- "thinkpad", "i7 1165g7" and "i71165g7"). Each listing's brand and name, and its processor, also carry every two
-- adjacent words written together, at the weight of their field; the vocabulary learns them as `joined` words. A
-- search joins two typed words when together they are a word some title has (decision 0064).
CREATE FUNCTION search_joined_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(w || next_w, ' ' ORDER BY n), '') FROM (
    SELECT w, n, lead(w) OVER (ORDER BY n) AS next_w
    FROM regexp_split_to_table(lower(t), '[^[:alnum:]]+') WITH ORDINALITY AS s(w, n)
    WHERE w <> ''
  ) pairs
  WHERE next_w IS NOT NULL
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION products_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  brand_name text;
  title_name text;
BEGIN
  SELECT name INTO brand_name FROM brands WHERE id = NEW.brand_id;
  title_name := coalesce(brand_name, '') || ' ' || NEW.name;
  NEW.search_title := lower(title_name || ' ' || NEW.processor);
  NEW.search_vector :=
    setweight(to_tsvector('simple', title_name || ' ' || search_joined_words(title_name)), 'A') ||
    setweight(to_tsvector('simple', NEW.processor || ' ' || search_joined_words(NEW.processor)), 'B') ||
    setweight(to_tsvector('simple', NEW.description), 'C');
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_terms_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms AS s (term, in_name, joined)
  SELECT w, bool_or(in_name), bool_and(joined) FROM (
    SELECT w, false AS in_name, false AS joined
    FROM new_rows, regexp_split_to_table(new_rows.search_title, '[^[:alnum:]]+') AS w
    UNION ALL
    SELECT w, true, false FROM new_rows LEFT JOIN brands b ON b.id = new_rows.brand_id,
      regexp_split_to_table(lower(coalesce(b.name, '') || ' ' || new_rows.name), '[^[:alnum:]]+') AS w
    UNION ALL
    SELECT w, true, true FROM new_rows LEFT JOIN brands b ON b.id = new_rows.brand_id,
      regexp_split_to_table(search_joined_words(coalesce(b.name, '') || ' ' || new_rows.name), ' ') AS w
    UNION ALL
    SELECT w, false, true FROM new_rows, regexp_split_to_table(search_joined_words(new_rows.processor), ' ') AS w
  ) words
  WHERE length(w) BETWEEN 1 AND 40
  GROUP BY w
  ON CONFLICT (term) DO UPDATE SET in_name = s.in_name OR excluded.in_name, joined = s.joined AND excluded.joined
    WHERE (excluded.in_name AND NOT s.in_name) OR (s.joined AND NOT excluded.joined);
  RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE products SET name = name;

-- Keeps a listing's search columns in step with its text, whoever writes it (the app, a bulk load, a fix by hand).
CREATE FUNCTION products_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  brand_name text;
BEGIN
  SELECT name INTO brand_name FROM brands WHERE id = NEW.brand_id;
  NEW.search_title := lower(coalesce(brand_name, '') || ' ' || NEW.name || ' ' || NEW.processor);
  NEW.search_vector :=
    setweight(to_tsvector('simple', coalesce(brand_name, '') || ' ' || NEW.name), 'A') ||
    setweight(to_tsvector('simple', NEW.processor), 'B') ||
    setweight(to_tsvector('simple', NEW.description), 'C');
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_search_fill BEFORE INSERT OR UPDATE OF name, brand_id, processor, description ON products
  FOR EACH ROW EXECUTE FUNCTION products_search_fill();
--> statement-breakpoint
-- The vocabulary misspelt words are corrected against: every word of the titles, once per statement.
CREATE FUNCTION search_terms_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term)
  SELECT DISTINCT w FROM new_rows, regexp_split_to_table(new_rows.search_title, '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 1 AND 40
  ON CONFLICT (term) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_terms_collect_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_collect();
--> statement-breakpoint
CREATE TRIGGER search_terms_collect_update AFTER UPDATE ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_collect();
--> statement-breakpoint
UPDATE products SET name = name;

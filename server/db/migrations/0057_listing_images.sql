-- Written by hand: each listing's photos in order, as a listing response gives them, kept on the listing itself. A
-- page of listings (a search's, above all) read an aggregate of product_images a listing, about a third of the page
-- statement's CPU at 1,000,000 listings. `products_images_of` is the one definition of the value; the triggers write
-- it as photos change. Listings from before stay null until the `listings.images-fill` job writes them in batches
-- (server/modules/products/listing-images.ts): one update of every listing here held each listing's row for minutes
-- (4.6 min at 1,100,000), and reads take products_images_of meanwhile. docs/decisions/0145-*.
ALTER TABLE "products" ADD COLUMN "images" jsonb;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "images" SET DEFAULT '[]'::jsonb;--> statement-breakpoint
CREATE INDEX "products_images_unfilled_idx" ON "products" ("id") WHERE "images" IS NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION products_images_of(listing uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
      'card', pi.card_url, 'medium', pi.medium_url, 'detail', pi.detail_url)) ORDER BY pi.position), '[]'::jsonb)
  FROM product_images pi WHERE pi.product_id = listing
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION products_images_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The listings whose photos the statement changed, each written once (a photo moved to another listing: both).
  IF TG_OP = 'INSERT' THEN
    UPDATE products p SET images = products_images_of(p.id) WHERE p.id IN (SELECT n.product_id FROM new_rows n);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE products p SET images = products_images_of(p.id) WHERE p.id IN (SELECT o.product_id FROM old_rows o);
  ELSE
    UPDATE products p SET images = products_images_of(p.id)
    WHERE p.id IN (SELECT n.product_id FROM new_rows n UNION SELECT o.product_id FROM old_rows o);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_images_insert AFTER INSERT ON product_images REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_images_keep();--> statement-breakpoint
CREATE TRIGGER products_images_update AFTER UPDATE ON product_images REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_images_keep();--> statement-breakpoint
CREATE TRIGGER products_images_delete AFTER DELETE ON product_images REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_images_keep();

CREATE TABLE "public_data_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Written by hand: every transaction that changes what visitors are shown moves this version on by one as it
-- commits (a deferred trigger, once per transaction, so the row's lock is held only while it commits). Each instance
-- reads the row and drops its public cache when it moved (server/lib/public-cache.ts), so a change made anywhere (a
-- route, a job, the command line, by hand) reaches every cached answer without the code remembering to say so
-- (docs/decisions/0043-public-cache-follows-the-database.md).
INSERT INTO "public_data_version" ("id", "version") VALUES (true, 1);--> statement-breakpoint
CREATE OR REPLACE FUNCTION public_data_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('public_data.bumped_in', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('public_data.bumped_in', txid_current()::text, true);
    UPDATE public_data_version SET version = version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Listings: any change to a row (a view is counted elsewhere, in product_views).
CREATE CONSTRAINT TRIGGER public_data_products AFTER INSERT OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_products_update AFTER UPDATE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
-- What a listing shows beside its own row: its photos, a hold ("Reserved"), its brand, the price guide, the seller's
-- reviews (the rating and the seller page).
CREATE CONSTRAINT TRIGGER public_data_product_images AFTER INSERT OR UPDATE OR DELETE ON product_images
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_product_holds AFTER INSERT OR UPDATE OR DELETE ON product_holds
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_brands AFTER INSERT OR UPDATE OR DELETE ON brands
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_price_guides AFTER INSERT OR UPDATE OR DELETE ON price_guides
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_reviews AFTER INSERT OR UPDATE OR DELETE ON reviews
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
-- A person: only what listings and seller pages show of them (a sign-in or a confirmed address changes nothing
-- public). A new account shows nowhere until it lists.
CREATE CONSTRAINT TRIGGER public_data_users AFTER DELETE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public_data_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER public_data_users_update AFTER UPDATE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.name, OLD.email, OLD.phone, OLD.image, OLD.role, OLD.verified_at, OLD.disabled_at, OLD.erased_at)
    IS DISTINCT FROM (NEW.name, NEW.email, NEW.phone, NEW.image, NEW.role, NEW.verified_at, NEW.disabled_at, NEW.erased_at))
  EXECUTE FUNCTION public_data_bump();

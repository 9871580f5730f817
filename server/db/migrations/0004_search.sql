CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "processor_family" text GENERATED ALWAYS AS (case
        when lower(processor) ~ '\mapple\M|\mm[1-9]( pro| max| ultra)?\M' then 'apple-m'
        when lower(processor) ~ 'ryzen\s*[3579]\M' then 'amd-ryzen-' || substring(lower(processor) from 'ryzen\s*([3579])\M')
        when lower(processor) ~ '\mi[3579]\M' then 'intel-core-i' || substring(lower(processor) from '\mi([3579])\M')
      end) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_newest_idx" ON "products" USING btree ("posted_on" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "products"."is_sold" = false and "products"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_price_idx" ON "products" USING btree ("resale_price_cents","id") WHERE "products"."is_sold" = false and "products"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_brand_price_idx" ON "products" USING btree ("brand_id","resale_price_cents","id") WHERE "products"."is_sold" = false and "products"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "products_search_vector_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_search_title_trgm_idx" ON "products" USING gin ("search_title" gin_trgm_ops);
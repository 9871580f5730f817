-- Written by hand: the kept counts go (docs/decisions/0113-*). Each instance's copy of the listings answers every
-- count, and SQL while it is read; nothing reads listing_counts any more. Its triggers on products and users ran on
-- every listing change (a statement's old and new rows as tables, and an upsert of the combination's row, which
-- concurrent changes to one combination waited on). The version row stays: listing_facts_bump and listing_changes_bump
-- move it on at every change search reads (listing_counts_bump is that function's name). Every drop says IF EXISTS:
-- a database that ran a build with an earlier draft of this migration has none of them.
DROP TRIGGER IF EXISTS listing_counts_insert ON products;
--> statement-breakpoint
DROP TRIGGER IF EXISTS listing_counts_update ON products;
--> statement-breakpoint
DROP TRIGGER IF EXISTS listing_counts_delete ON products;
--> statement-breakpoint
DROP TRIGGER IF EXISTS listing_counts_seller ON users;
--> statement-breakpoint
DROP FUNCTION IF EXISTS listing_counts_apply();
--> statement-breakpoint
DROP FUNCTION IF EXISTS listing_counts_seller();
--> statement-breakpoint
DROP FUNCTION IF EXISTS listing_counts_rebuild();
--> statement-breakpoint
DROP TABLE IF EXISTS "listing_counts" CASCADE;

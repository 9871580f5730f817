ALTER TABLE "product_images" ADD COLUMN "medium_url" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "medium_url" text;
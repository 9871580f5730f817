-- Written by hand: the processor's model as the price guide keys it, kept with the listing (a stored generated
-- column), so a card's guide lookup and a sale's guide refresh compare a column instead of running
-- processor_model_key's three regular expressions on every row they read.
ALTER TABLE "products" ADD COLUMN "processor_model" text GENERATED ALWAYS AS (processor_model_key(processor)) STORED;

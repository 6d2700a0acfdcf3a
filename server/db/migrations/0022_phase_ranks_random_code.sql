ALTER TABLE "phase_ranks" ALTER COLUMN "code" DROP EXPRESSION;--> statement-breakpoint
ALTER TABLE "phase_ranks" ALTER COLUMN "code" SET DEFAULT upper(substr(md5(gen_random_uuid()::text), 1, 10));--> statement-breakpoint
-- Codes made from the ids alone could be worked out by anyone: every ranked row gets a random one.
UPDATE "phase_ranks" SET "code" = upper(substr(md5(gen_random_uuid()::text), 1, 10));

ALTER TABLE "ranking_state" ADD COLUMN "rebuild_ms" integer;--> statement-breakpoint
ALTER TABLE "ranking_state" ADD COLUMN "wanted_at" timestamp with time zone;
DROP INDEX "diplomas_phase_user_key";--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "stale_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "replaced_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "diplomas_phase_user_key" ON "diplomas" USING btree ("phase_id","user_id") WHERE "diplomas"."replaced_at" is null;
ALTER TABLE "users" ADD COLUMN "bucharest_sector" smallint;--> statement-breakpoint
-- Qualification rules stored before the sector option read as not counting the sectors.
UPDATE "phase_rules" SET "rules" = jsonb_set("rules", '{qualification,sectorsAsCounties}', 'false'::jsonb)
  WHERE jsonb_typeof("rules"->'qualification') = 'object'
    AND NOT ("rules"->'qualification' ? 'sectorsAsCounties');

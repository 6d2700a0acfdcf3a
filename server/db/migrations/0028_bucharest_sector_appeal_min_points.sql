ALTER TABLE "phases" ADD COLUMN "appeal_min_points" numeric(8, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bucharest_sector" smallint;--> statement-breakpoint
-- Qualification rules stored before the sector option read as not counting the sectors.
UPDATE "phase_rules" SET "rules" = jsonb_set("rules", '{qualification,sectorsAsCounties}', 'false'::jsonb)
  WHERE jsonb_typeof("rules"->'qualification') = 'object'
    AND NOT ("rules"->'qualification' ? 'sectorsAsCounties');--> statement-breakpoint
-- A share of an item's points becomes points on the paper: the share of the phase's smallest
-- item, so every appeal that changed a score before still does on every item (the threshold
-- never gets stricter). A phase with a share but no items yet starts at 0.
UPDATE "phases" p SET "appeal_min_points" = round((p."appeal_min_change" * m.smallest)::numeric, 2)
  FROM (
    SELECT t."phase_id", min(ti."score") AS smallest
    FROM "tests" t JOIN "test_items" ti ON ti."test_id" = t."id"
    GROUP BY t."phase_id"
  ) m
  WHERE m."phase_id" = p."id" AND p."appeal_min_change" > 0;

CREATE TABLE "phase_results" (
	"phase_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"points" numeric(10, 2) DEFAULT 0 NOT NULL,
	"awaiting_items" integer DEFAULT 0 NOT NULL,
	"tests" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phase_results_phase_id_student_id_pk" PRIMARY KEY("phase_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "test_results" (
	"test_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"phase_id" uuid NOT NULL,
	"points" numeric(10, 2) DEFAULT 0 NOT NULL,
	"awaiting_items" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_results_test_id_student_id_pk" PRIMARY KEY("test_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "phases" ADD COLUMN "appeal_start_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phases" ADD COLUMN "appeal_end_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "key_shown_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "score_origin" text;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "score_state" text;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "scored_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "weight_by_difficulty" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phase_results" ADD CONSTRAINT "phase_results_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_results" ADD CONSTRAINT "phase_results_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_results" ADD CONSTRAINT "test_results_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_results" ADD CONSTRAINT "test_results_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_results" ADD CONSTRAINT "test_results_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phase_results_points_idx" ON "phase_results" USING btree ("phase_id","points");--> statement-breakpoint
CREATE INDEX "test_results_phase_student_idx" ON "test_results" USING btree ("phase_id","student_id");--> statement-breakpoint
-- What was scored before keeps its meaning under the results module. Every item of a finished
-- attempt gets a row; an automatic score is decided; an open item answered with text awaits
-- marking, a blank one earns 0. Hybrid answers with pages await marking.
INSERT INTO "answers" ("id", "test_id", "student_id", "question_id", "attempt_id")
SELECT gen_random_uuid(), at."test_id", at."student_id", item."question_id", at."id"
FROM "attempts" at
CROSS JOIN LATERAL unnest(at."item_order") AS item("question_id")
WHERE at."state" = 'finished'
ON CONFLICT ("test_id", "student_id", "question_id") DO NOTHING;--> statement-breakpoint
UPDATE "answers" a SET
  "score" = CASE
    WHEN q."item_type" = 'open' AND coalesce(btrim(a."submitted_answer" #>> '{}'), '') <> '' THEN NULL
    ELSE coalesce(a."score", 0) END,
  "score_state" = CASE
    WHEN q."item_type" = 'open' AND coalesce(btrim(a."submitted_answer" #>> '{}'), '') <> '' THEN 'awaiting_marking'
    ELSE 'decided' END,
  "score_origin" = CASE
    WHEN q."item_type" = 'open' AND coalesce(btrim(a."submitted_answer" #>> '{}'), '') <> '' THEN NULL
    ELSE 'auto' END,
  "scored_at" = at."finished_at"
FROM "attempts" at, "questions" q
WHERE a."attempt_id" = at."id" AND at."state" = 'finished' AND q."id" = a."question_id";--> statement-breakpoint
UPDATE "answers" SET "score" = NULL, "score_state" = 'awaiting_marking', "scored_at" = "updated_at"
WHERE "attempt_id" IS NULL AND cardinality("file_ids") > 0;--> statement-breakpoint
INSERT INTO "test_results" ("test_id", "student_id", "phase_id", "points", "awaiting_items")
SELECT a."test_id", a."student_id", t."phase_id", coalesce(sum(a."score"), 0),
  (SELECT count(*) FROM "test_items" ti WHERE ti."test_id" = a."test_id")
    - count(*) FILTER (WHERE a."score_state" = 'decided')
FROM "answers" a JOIN "tests" t ON t."id" = a."test_id"
WHERE a."score_state" IS NOT NULL
GROUP BY a."test_id", a."student_id", t."phase_id";--> statement-breakpoint
INSERT INTO "phase_results" ("phase_id", "student_id", "points", "awaiting_items", "tests")
SELECT "phase_id", "student_id", sum("points"), sum("awaiting_items"), count(*)
FROM "test_results" GROUP BY "phase_id", "student_id";

CREATE TABLE "question_rubrics" (
	"item_id" uuid PRIMARY KEY NOT NULL,
	"criteria" jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_appeals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"phase_id" uuid NOT NULL,
	"test_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"answer_id" uuid,
	"entry_id" uuid,
	"item_index_in_test" integer NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"filed_at" timestamp with time zone NOT NULL,
	"max_score" numeric(8, 2) NOT NULL,
	"original_score" numeric(8, 2),
	"mediator_id" uuid,
	"mediator_score" numeric(8, 2),
	"mediator_note" text,
	"result_score" numeric(8, 2),
	"final_score" numeric(8, 2),
	"outcome" text,
	"decision_note" text,
	"resolved_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"phase_id" uuid NOT NULL,
	"test_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"answer_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"item_index_in_test" integer NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'marking' NOT NULL,
	"max_score" numeric(8, 2) NOT NULL,
	"mediator_id" uuid,
	"mediator_score" numeric(8, 2),
	"mediator_note" text,
	"mediated_at" timestamp with time zone,
	"final_score" numeric(8, 2),
	"final_by" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_marks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"parent_id" uuid NOT NULL,
	"round" text NOT NULL,
	"slot" integer NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"score" numeric(8, 2),
	"criteria" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"marked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phases" ADD COLUMN "mark_step" real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE "phases" ADD COLUMN "appeal_min_change" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "question_rubrics" ADD CONSTRAINT "question_rubrics_item_id_questions_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_rubrics" ADD CONSTRAINT "question_rubrics_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_item_id_questions_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."answers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_entry_id_review_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."review_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_appeals" ADD CONSTRAINT "review_appeals_mediator_id_users_id_fk" FOREIGN KEY ("mediator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_entries" ADD CONSTRAINT "review_entries_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_entries" ADD CONSTRAINT "review_entries_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_entries" ADD CONSTRAINT "review_entries_item_id_questions_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_entries" ADD CONSTRAINT "review_entries_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."answers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_entries" ADD CONSTRAINT "review_entries_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_entries" ADD CONSTRAINT "review_entries_mediator_id_users_id_fk" FOREIGN KEY ("mediator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_marks" ADD CONSTRAINT "review_marks_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_appeals_item_uq" ON "review_appeals" USING btree ("test_id","student_id","item_id");--> statement-breakpoint
CREATE INDEX "review_appeals_phase_idx" ON "review_appeals" USING btree ("phase_id","test_id","item_index_in_test","code");--> statement-breakpoint
CREATE UNIQUE INDEX "review_entries_answer_uq" ON "review_entries" USING btree ("answer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_entries_phase_code_uq" ON "review_entries" USING btree ("phase_id","code");--> statement-breakpoint
CREATE INDEX "review_entries_phase_idx" ON "review_entries" USING btree ("phase_id","test_id","item_index_in_test","code");--> statement-breakpoint
CREATE UNIQUE INDEX "review_marks_slot_uq" ON "review_marks" USING btree ("parent_id","slot");--> statement-breakpoint
CREATE UNIQUE INDEX "review_marks_reviewer_uq" ON "review_marks" USING btree ("parent_id","reviewer_id");--> statement-breakpoint
CREATE INDEX "review_marks_reviewer_idx" ON "review_marks" USING btree ("reviewer_id","round");
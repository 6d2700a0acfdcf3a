CREATE TABLE "question_graders" (
	"question_id" uuid NOT NULL,
	"teacher_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_graders_question_id_teacher_id_pk" PRIMARY KEY("question_id","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"phase_id" uuid NOT NULL,
	"item_q" text NOT NULL,
	"item_category" text,
	"item_discipline" text NOT NULL,
	"item_grade" integer NOT NULL,
	"difficulty" text NOT NULL,
	"item_type" text NOT NULL,
	"item_answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"item_correct_answers" jsonb,
	"image_file_id" uuid,
	"mediator_teacher_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "test_grades" (
	"phase_id" uuid NOT NULL,
	"grade" integer NOT NULL,
	"test_id" uuid NOT NULL,
	CONSTRAINT "test_grades_phase_id_grade_pk" PRIMARY KEY("phase_id","grade")
);
--> statement-breakpoint
CREATE TABLE "test_items" (
	"test_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"score" numeric(8, 2) NOT NULL,
	CONSTRAINT "test_items_test_id_question_id_pk" PRIMARY KEY("test_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "tests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"phase_id" uuid NOT NULL,
	"name" text NOT NULL,
	"grades" integer[] NOT NULL,
	"subject" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"total_score" numeric(8, 2) NOT NULL,
	"easy_count" integer DEFAULT 0 NOT NULL,
	"medium_count" integer DEFAULT 0 NOT NULL,
	"hard_count" integer DEFAULT 0 NOT NULL,
	"seed" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "question_graders" ADD CONSTRAINT "question_graders_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_graders" ADD CONSTRAINT "question_graders_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_image_file_id_files_id_fk" FOREIGN KEY ("image_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_mediator_teacher_id_users_id_fk" FOREIGN KEY ("mediator_teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_grades" ADD CONSTRAINT "test_grades_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_grades" ADD CONSTRAINT "test_grades_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_items" ADD CONSTRAINT "test_items_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_items" ADD CONSTRAINT "test_items_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tests" ADD CONSTRAINT "tests_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tests" ADD CONSTRAINT "tests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_graders_teacher_idx" ON "question_graders" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "questions_phase_idx" ON "questions" USING btree ("phase_id","item_q","id");--> statement-breakpoint
CREATE INDEX "test_grades_test_idx" ON "test_grades" USING btree ("test_id");--> statement-breakpoint
CREATE INDEX "test_items_question_idx" ON "test_items" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "tests_phase_idx" ON "tests" USING btree ("phase_id");
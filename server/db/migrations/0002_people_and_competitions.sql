-- Trigram indexes back the case-insensitive partial name search (pg_trgm is a trusted extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "edition_coordinators" (
	"edition_id" uuid NOT NULL,
	"teacher_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "edition_coordinators_edition_id_teacher_id_pk" PRIMARY KEY("edition_id","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "edition_students" (
	"edition_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"grade" integer,
	"student_centre" text,
	"cms_username" text,
	"cms_password" text,
	"added_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "edition_students_edition_id_student_id_pk" PRIMARY KEY("edition_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "editions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"exam_id" uuid NOT NULL,
	"name" text NOT NULL,
	"year" integer,
	"state" text DEFAULT 'active' NOT NULL,
	"terms_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exam_teachers" (
	"exam_id" uuid NOT NULL,
	"teacher_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exam_teachers_exam_id_teacher_id_role_pk" PRIMARY KEY("exam_id","teacher_id","role")
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_normalized" text NOT NULL,
	"subject" text NOT NULL,
	"grades" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"description" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "phase_students" (
	"phase_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"result" text,
	"source" text DEFAULT 'enrolment' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phase_students_phase_id_student_id_pk" PRIMARY KEY("phase_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "phases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"registration_open" boolean DEFAULT false NOT NULL,
	"review_started" boolean DEFAULT false NOT NULL,
	"all_published" boolean DEFAULT false NOT NULL,
	"mediation_threshold" real DEFAULT 0.1 NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "edition_coordinators" ADD CONSTRAINT "edition_coordinators_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_coordinators" ADD CONSTRAINT "edition_coordinators_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_students" ADD CONSTRAINT "edition_students_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_students" ADD CONSTRAINT "edition_students_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "editions" ADD CONSTRAINT "editions_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_teachers" ADD CONSTRAINT "exam_teachers_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_teachers" ADD CONSTRAINT "exam_teachers_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_students" ADD CONSTRAINT "phase_students_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_students" ADD CONSTRAINT "phase_students_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phases" ADD CONSTRAINT "phases_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "edition_coordinators_teacher_idx" ON "edition_coordinators" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "edition_students_student_idx" ON "edition_students" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "edition_students_cms_username_key" ON "edition_students" USING btree ("cms_username");--> statement-breakpoint
CREATE INDEX "editions_exam_idx" ON "editions" USING btree ("exam_id","name");--> statement-breakpoint
CREATE INDEX "exam_teachers_teacher_idx" ON "exam_teachers" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "exams_name_idx" ON "exams" USING btree ("name_normalized","id");--> statement-breakpoint
CREATE INDEX "exams_name_trgm_idx" ON "exams" USING gin ("name_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "phase_students_student_idx" ON "phase_students" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "phases_edition_idx" ON "phases" USING btree ("edition_id","start_date");--> statement-breakpoint
CREATE INDEX "users_type_county_idx" ON "users" USING btree ("type","county");--> statement-breakpoint
CREATE INDEX "users_family_name_trgm_idx" ON "users" USING gin ("family_name_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_given_name_trgm_idx" ON "users" USING gin ("given_name_normalized" gin_trgm_ops);
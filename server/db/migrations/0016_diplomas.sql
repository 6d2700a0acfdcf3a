CREATE TABLE "diploma_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"requested_by" uuid NOT NULL,
	"exam_id" uuid NOT NULL,
	"edition_id" uuid NOT NULL,
	"phase_id" uuid NOT NULL,
	"teacher_id" uuid,
	"origin" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"file_name" text,
	"file_key" text,
	"error_code" text,
	"tries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "diplomas" (
	"code" text PRIMARY KEY NOT NULL,
	"phase_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"exam_name" text NOT NULL,
	"edition_name" text NOT NULL,
	"phase_name" text NOT NULL,
	"grade" integer,
	"school" text,
	"prize" text,
	"student_count" integer,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "diploma_jobs" ADD CONSTRAINT "diploma_jobs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_jobs" ADD CONSTRAINT "diploma_jobs_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_jobs" ADD CONSTRAINT "diploma_jobs_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_jobs" ADD CONSTRAINT "diploma_jobs_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_jobs" ADD CONSTRAINT "diploma_jobs_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "diploma_jobs_requester_idx" ON "diploma_jobs" USING btree ("requested_by","created_at");--> statement-breakpoint
CREATE INDEX "diploma_jobs_pending_idx" ON "diploma_jobs" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "diplomas_phase_user_key" ON "diplomas" USING btree ("phase_id","user_id");
CREATE TABLE "paper_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"requested_by" uuid NOT NULL,
	"test_id" uuid NOT NULL,
	"room" text,
	"state" text NOT NULL,
	"size" bigint,
	"received" bigint DEFAULT 0 NOT NULL,
	"file_key" text,
	"file_name" text,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"tries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "paper_seats" (
	"test_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"code" text NOT NULL,
	"room" text DEFAULT '' NOT NULL,
	"seat" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paper_seats_test_id_student_id_pk" PRIMARY KEY("test_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "scan_pages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"test_id" uuid NOT NULL,
	"page_no" integer NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"qr_text" text,
	"student_id" uuid,
	"question_id" uuid,
	"booklet_page" integer,
	"file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paper_jobs" ADD CONSTRAINT "paper_jobs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_jobs" ADD CONSTRAINT "paper_jobs_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_seats" ADD CONSTRAINT "paper_seats_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_seats" ADD CONSTRAINT "paper_seats_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_job_id_paper_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."paper_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_jobs_test_idx" ON "paper_jobs" USING btree ("test_id","created_at");--> statement-breakpoint
CREATE INDEX "paper_jobs_pending_idx" ON "paper_jobs" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_seats_code_key" ON "paper_seats" USING btree ("test_id","code");--> statement-breakpoint
CREATE INDEX "scan_pages_test_idx" ON "scan_pages" USING btree ("test_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "scan_pages_one_stored_key" ON "scan_pages" USING btree ("test_id","student_id","question_id","booklet_page") WHERE "scan_pages"."state" = 'stored';
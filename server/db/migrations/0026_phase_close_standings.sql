CREATE TABLE "phase_close_standings" (
	"phase_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"total" numeric(10, 2),
	"rank" integer,
	"result" text,
	"prize" text,
	"closed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "phase_close_standings_phase_id_student_id_pk" PRIMARY KEY("phase_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "phase_close_standings" ADD CONSTRAINT "phase_close_standings_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phase_close_standings" ADD CONSTRAINT "phase_close_standings_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;